package executa

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// namespace holds the rules shared by the reverse-RPC methods of one family.
type namespace struct {
	capabilities []string // any of these manifest host_capabilities unlocks the method
	timeout      time.Duration
	timeoutCode  int
	refusalCode  int // the code of a local refusal
	refusal      string
}

var (
	samplingNamespace = namespace{[]string{"llm.sample"}, 90 * time.Second, CodeSamplingTimeout, CodeSamplingNotNegotiated, "NOT_NEGOTIATED"}
	storageNamespace  = namespace{[]string{"aps.kv", "storage.user", "storage.app", "storage.tool"}, 30 * time.Second, CodeStorageTimeout, CodeStorageNotGranted, "NOT_GRANTED"}
	otherNamespace    = namespace{nil, 90 * time.Second, CodeSamplingTimeout, CodeSamplingNotNegotiated, "NOT_NEGOTIATED"}
)

func namespaceOf(method string) namespace {
	switch {
	case strings.HasPrefix(method, "sampling/"), method == "agent/complete":
		return samplingNamespace
	case strings.HasPrefix(method, "storage/"):
		return storageNamespace
	default:
		return otherNamespace
	}
}

// reply is the host's answer to one reverse request.
type reply struct {
	result json.RawMessage
	err    *HostError
}

// channel is the plugin's side of reverse RPC: the negotiated state and the table of
// requests waiting for their answer.
type channel struct {
	v2           atomic.Bool // true once initialize was answered "2.0"
	capabilities map[string]bool
	writer       *frameWriter
	log          func(string, ...any)

	mu      sync.Mutex
	pending map[string]chan reply
	closed  bool // stdin closed: the host can answer nothing any more
}

// close fails every request still waiting (its answer can never come once stdin is closed),
// and every new one.
func (c *channel) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for id, wait := range c.pending {
		wait <- reply{err: &HostError{Code: CodeInternalError, Message: "HOST_GONE: stdin closed before the host answered the request"}}
		delete(c.pending, id)
	}
}

func newChannel(m *manifest, w *frameWriter, log func(string, ...any)) *channel {
	return &channel{capabilities: m.hostCapabilities, writer: w, log: log, pending: map[string]chan reply{}}
}

// settle routes a response frame from the host to the request waiting for it.
func (c *channel) settle(id json.RawMessage, result json.RawMessage, rpcErr json.RawMessage, isError bool) {
	var key string
	if jsonType(id) == "string" {
		_ = json.Unmarshal(id, &key)
	}
	c.mu.Lock()
	wait, ok := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if !ok {
		c.log("executa: response for unknown request id %s ignored", id)
		return
	}
	if !isError {
		wait <- reply{result: result}
		return
	}
	e, _ := decodeObject(rpcErr)
	he := &HostError{Code: CodeInternalError, Message: "the host answered with an error", Data: e["data"]}
	var code int
	if jsonType(e["code"]) == "number" && json.Unmarshal(e["code"], &code) == nil {
		he.Code = code
	}
	if jsonType(e["message"]) == "string" {
		_ = json.Unmarshal(e["message"], &he.Message)
	}
	wait <- reply{err: he}
}

// HostFunc answers reverse requests in place of a host; see NewHostClient.
type HostFunc func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

// HostClient sends reverse requests to the host on behalf of one invoke. Every request
// carries the invoke's id in params.context.invoke_id and params.metadata.executa_invoke_id,
// and its wait ends at the earlier of the call's timeout and the invoke's deadline.
//
// A nil *HostClient is valid: every call fails with NOT_NEGOTIATED.
type HostClient struct {
	ch       *channel
	fake     HostFunc
	v2       bool // the invoke started after a "2.0" initialize
	invokeID string
	deadline time.Time
}

// NewHostClient returns a host client that hands every request to f instead of a host:
// for unit tests of tools that call the host. f gets the params as the tool built them.
func NewHostClient(f HostFunc) *HostClient {
	return &HostClient{fake: f}
}

// Request sends a reverse request and waits for its result. params must encode as a JSON
// object (or be nil). The wait is bounded by the method's default timeout (sampling 90 s,
// storage 30 s), the invoke's deadline and ctx; pass a ctx with a shorter deadline for a
// shorter wait. A timeout is a HostError with the namespace's TIMEOUT code.
func (h *HostClient) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ns := namespaceOf(method)
	raw, err := encodeParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if h != nil && h.fake != nil {
		return h.fake(ctx, method, raw)
	}
	refuse := func(why string) error {
		return &HostError{Code: ns.refusalCode, Message: ns.refusal + ": " + method + " " + why, Method: method}
	}
	if h == nil || h.ch == nil || !h.v2 {
		return nil, refuse(`needs Executa protocol 2.0, and this host did not negotiate it (it sent no initialize with protocolVersion "2.0")`)
	}
	if len(ns.capabilities) > 0 && !h.ch.hasAny(ns.capabilities) {
		return nil, refuse(fmt.Sprintf("needs %q in host_capabilities (executa.json), then run `executa manifest`", ns.capabilities[0]))
	}
	deadline := time.Now().Add(ns.timeout)
	if !h.deadline.IsZero() && h.deadline.Before(deadline) {
		deadline = h.deadline
	}
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	wait := time.Until(deadline)
	timedOut := func() error {
		ms := wait.Milliseconds()
		if ms < 0 {
			ms = 0
		}
		return &HostError{Code: ns.timeoutCode, Message: fmt.Sprintf("TIMEOUT: no answer to %s within %d ms", method, ms), Method: method}
	}
	if wait <= 0 {
		return nil, timedOut()
	}
	frameParams, err := stamp(raw, h.invokeID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}

	id := randomHex()
	answer := make(chan reply, 1)
	h.ch.mu.Lock()
	if h.ch.closed {
		h.ch.mu.Unlock()
		return nil, &HostError{Code: CodeInternalError, Message: "HOST_GONE: stdin closed before the host answered " + method, Method: method}
	}
	h.ch.pending[id] = answer
	h.ch.mu.Unlock()
	drop := func() {
		h.ch.mu.Lock()
		delete(h.ch.pending, id)
		h.ch.mu.Unlock()
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	h.ch.writer.request(id, method, frameParams)

	select {
	case r := <-answer:
		if r.err != nil {
			r.err.Method = method
			return nil, r.err
		}
		return r.result, nil
	case <-timer.C:
		drop()
		return nil, timedOut()
	case <-ctx.Done():
		drop()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, timedOut()
		}
		return nil, ctx.Err()
	}
}

func (c *channel) hasAny(names []string) bool {
	for _, n := range names {
		if c.capabilities[n] {
			return true
		}
	}
	return false
}

func encodeParams(params any) (json.RawMessage, error) {
	if params == nil {
		return json.RawMessage("{}"), nil
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	if string(raw) == "null" {
		return json.RawMessage("{}"), nil
	}
	if jsonType(raw) != "object" {
		return nil, fmt.Errorf("params must encode as a JSON object, not %s", jsonType(raw))
	}
	return raw, nil
}

// stamp adds the invoke id to params.context.invoke_id and params.metadata.executa_invoke_id,
// keeping whatever else the two objects hold.
func stamp(params json.RawMessage, invokeID string) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(params, &fields); err != nil {
		return nil, err
	}
	for key, idKey := range map[string]string{"context": "invoke_id", "metadata": "executa_invoke_id"} {
		var obj map[string]json.RawMessage
		if jsonType(fields[key]) == "object" {
			_ = json.Unmarshal(fields[key], &obj)
		}
		if obj == nil {
			obj = map[string]json.RawMessage{}
		}
		obj[idKey], _ = json.Marshal(invokeID)
		fields[key], _ = json.Marshal(obj)
	}
	return json.Marshal(fields)
}
