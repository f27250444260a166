package executa

import (
	"context"
	"fmt"
	"io"
	"os"
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

	errOut io.Writer
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
