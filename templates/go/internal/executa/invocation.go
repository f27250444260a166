package executa

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// Invocation is what a tool knows about the invoke it runs for. Get it with FromContext.
type Invocation struct {
	// Tool is the name of the tool being invoked.
	Tool string
	// InvokeID is the host's context.invoke_id (or the legacy params.invoke_id), "" when absent.
	InvokeID string
	// Deadline is context.deadline_ms, else the start plus the tool's timeout (60 s default).
	// The context.Context the tool receives carries the same deadline.
	Deadline time.Time
	// Credentials are the values the host sent in context.credentials.
	Credentials map[string]string
	// Host is the client for the host's services (sampling, agents, storage, ...). A nil
	// Host is a valid client whose every call is refused as on a protocol 1.1 host.
	Host *HostClient

	errOut   io.Writer
	finished atomic.Bool // set when the invoke is answered
}

// Progress reports progress while the tool runs: it sends the notification executa/progress
// with {context: {invoke_id}, type: "progress", data}; Anna shows it on the invoke's job (and
// `executa dev` prints it). data must encode as a JSON object, e.g.
// inv.Progress(map[string]any{"step": 2, "of": 5}). It needs no capability. It returns an
// error, and sends nothing, once the invoke has been answered; outside an invoke (a unit test)
// it does nothing.
func (inv *Invocation) Progress(data map[string]any) error {
	return inv.ProgressAs("progress", data)
}

// ToolUpdate is Progress with type "tool_update".
func (inv *Invocation) ToolUpdate(data map[string]any) error {
	return inv.ProgressAs("tool_update", data)
}

// ProgressAs is Progress with the notification's type: "progress" or "tool_update".
func (inv *Invocation) ProgressAs(kind string, data map[string]any) error {
	if inv.finished.Load() {
		return fmt.Errorf("progress: invoke %q of tool %s has already been answered; report progress before the tool returns", inv.InvokeID, inv.Tool)
	}
	if kind != "progress" && kind != "tool_update" {
		return fmt.Errorf(`progress: type must be "progress" or "tool_update", got %q`, kind)
	}
	if data == nil {
		return errors.New("progress: data must be a JSON object, like map[string]any{\"step\": 2, \"of\": 5}; got nil")
	}
	encoded, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("progress: data must be a JSON object: %w", err)
	}
	if inv.Host == nil || inv.Host.ch == nil {
		return nil
	}
	params := struct {
		Context struct {
			InvokeID string `json:"invoke_id"`
		} `json:"context"`
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}{Type: kind, Data: encoded}
	params.Context.InvokeID = inv.InvokeID
	inv.Host.ch.writer.notify("executa/progress", params)
	return nil
}

// Credential returns the credential's value: context.credentials[name], else the
// environment variable name (for local runs); ok is false when neither is set and non-empty.
func (inv *Invocation) Credential(name string) (string, bool) {
	if v := inv.Credentials[name]; v != "" {
		return v, true
	}
	if v := os.Getenv(name); v != "" {
		return v, true
	}
	return "", false
}

// Logf writes one line to stderr, tagged with the tool and the invoke id.
func (inv *Invocation) Logf(format string, args ...any) {
	out := inv.errOut
	if out == nil {
		out = os.Stderr
	}
	tag := inv.Tool
	if inv.InvokeID != "" {
		tag += " " + inv.InvokeID
	}
	fmt.Fprintf(out, "[%s] %s\n", tag, fmt.Sprintf(format, args...))
}

type invocationKey struct{}

// NewContext returns a context that carries the invocation; tests use it to call a tool
// with their own credentials or a fake host (see NewHostClient).
func NewContext(ctx context.Context, inv *Invocation) context.Context {
	return context.WithValue(ctx, invocationKey{}, inv)
}

// FromContext returns the invocation the context carries. Outside an invoke (a unit test
// calling a tool directly) it returns a detached invocation: no invoke id, credentials from
// the environment only, and a host client whose every call is refused (NOT_NEGOTIATED,
// NOT_GRANTED: the namespace's refusal), as with a host that speaks only protocol 1.1.
func FromContext(ctx context.Context) *Invocation {
	if inv, ok := ctx.Value(invocationKey{}).(*Invocation); ok && inv != nil {
		return inv
	}
	inv := &Invocation{}
	if d, ok := ctx.Deadline(); ok {
		inv.Deadline = d
	}
	return inv
}
