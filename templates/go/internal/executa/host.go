package executa

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// reply is the host's answer to one reverse request.
type reply struct {
	result json.RawMessage
	err    *HostError // Code, Message and Data only: the request names it
}

// channel is the plugin's side of reverse RPC: the negotiated state and the table of
// requests waiting for their answer.
type channel struct {
	// declined says why reverse requests are refused locally (`this host's initialize offered
	// protocolVersion "1.1"`); empty when no initialize came (Anna's hosts send none, and speak
	// 2.0) or the last one offered 2.x.
	declined     atomic.Value // string
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

// take removes the request with this id from the table and returns its wait; ok is false
// (and a line logged) when no request has that id.
func (c *channel) take(id json.RawMessage) (wait chan reply, ok bool) {
	var key string
	if jsonType(id) == "string" {
		_ = json.Unmarshal(id, &key)
	}
	c.mu.Lock()
	wait, ok = c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if !ok {
		c.log("executa: response for unknown request id %s ignored", id)
	}
	return wait, ok
}

// waitsFor reports whether a request with this id waits for its answer.
func (c *channel) waitsFor(id json.RawMessage) bool {
	var key string
	if jsonType(id) != "string" || json.Unmarshal(id, &key) != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[key]
	return ok
}

// tooDeep fails the request a response nested too deep to read names. Nothing is written back.
func (c *channel) tooDeep(id json.RawMessage) {
	c.malformedAnswer(id, fmt.Sprintf("nests deeper than %d levels", maxDepth))
}

// malformedAnswer fails the request the answer names: MALFORMED_RESULT, what says why.
func (c *channel) malformedAnswer(id json.RawMessage, what string) {
	if wait, ok := c.take(id); ok {
		wait <- reply{err: &HostError{Code: CodeInternalError, Message: "MALFORMED_RESULT: the host's answer " + what}}
	}
}

// settle routes a response frame from the host to the request waiting for it.
func (c *channel) settle(id json.RawMessage, result json.RawMessage, rpcErr json.RawMessage, isError bool) {
	wait, ok := c.take(id)
	if !ok {
		return
	}
	if !isError {
		wait <- reply{result: result}
		return
	}
	e, _ := decodeObject(rpcErr)
	he := &HostError{Code: CodeInternalError, Message: "the host answered with an error", Data: e["data"]}
	var code int
	var message string
	if jsonType(e["code"]) == "number" && json.Unmarshal(e["code"], &code) == nil &&
		jsonType(e["message"]) == "string" && json.Unmarshal(e["message"], &message) == nil {
		he.Code, he.Message = code, message
	}
	wait <- reply{err: he}
}

func (c *channel) hasAny(names []string) bool {
	for _, n := range names {
		if c.capabilities[n] {
			return true
		}
	}
	return false
}

// HostFunc answers reverse requests in place of a host; see NewHostClient.
type HostFunc func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

// HostClient sends reverse requests to the host on behalf of one invoke: one method per
// host service (docs/host-services.md), and Request for any other. Every request carries the
// invoke's id in params.context.invoke_id (sampling, agent/complete and image requests also
// in params.metadata.executa_invoke_id, where their hosts read it), and its
// wait ends at the earliest of the method's default timeout, the invoke's deadline and ctx's
// deadline. A refusal, an error answer and a timeout are a *HostError; a cancelled ctx gives
// ctx.Err(), and params that cannot be encoded give the encoding error.
//
// A nil *HostClient is valid: every call is refused (NOT_NEGOTIATED, NOT_GRANTED: the
// namespace's refusal), as there is no host to ask.
type HostClient struct {
	ch       *channel
	fake     HostFunc
	declined string // why reverse requests are refused, when they are (see channel.declined)
	invokeID string
	deadline time.Time
	logf     func(format string, args ...any) // the tool's log
}

// NewHostClient returns a host client that hands every request to f instead of a host:
// for unit tests of tools that call the host. f gets the params as the tool built them
// (the checks made before sending still apply); a *HostError it returns gets the method and
// the code's name filled in when it has none.
func NewHostClient(f HostFunc) *HostClient {
	return &HostClient{fake: f}
}

// Request sends a reverse request and waits for its result. params must encode as a JSON
// object (or be nil). The wait is bounded by the method's default timeout (sampling 90 s,
// storage 30 s, ...; see docs/host-services.md), the invoke's deadline and ctx; pass a ctx
// with a shorter deadline for a shorter wait. A timeout is a HostError with the namespace's
// TIMEOUT code.
func (h *HostClient) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	raw, err := encodeParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	rule := ruleFor(method, raw)
	ns := rule.ns
	if h != nil && h.fake != nil {
		result, err := h.fake(ctx, method, raw)
		var he *HostError
		if errors.As(err, &he) && (he.Method == "" || he.CodeName == "") {
			named := *he
			if named.Method == "" {
				named.Method = method
			}
			if named.CodeName == "" {
				named.CodeName = ns.codeName(named.Code, named.Data)
			}
			return nil, &named
		}
		return result, err
	}
	refuse := func(why string) error {
		name := ns.names[ns.refusalCode]
		if ns.errorCodes != nil {
			name = "NOT_GRANTED"
		}
		return ns.hostError(method, ns.refusalCode, name+": "+method+" "+why, ns.localData(func(c *localErrorCodes) string { return c.refusal }))
	}
	if h == nil || h.ch == nil {
		return nil, refuse("needs Executa protocol 2.0, and this context has no host (the tool was called outside an invoke; see NewHostClient)")
	}
	if h.declined != "" {
		return nil, refuse("needs Executa protocol 2.0, and " + h.declined)
	}
	if len(rule.capabilities) > 0 && !h.ch.hasAny(rule.capabilities) {
		return nil, refuse(fmt.Sprintf("needs %q in host_capabilities (executa.json), then run `executa manifest`", rule.capabilities[0]))
	}
	wait := time.Until(h.deadlineFor(ctx, rule.timeout))
	if wait <= 0 {
		return nil, h.timedOut(method, method, wait)
	}
	frameParams, err := stamp(raw, h.invokeID, invokeIDMetadata[method])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}

	id := randomHex()
	answer := make(chan reply, 1)
	h.ch.mu.Lock()
	if h.ch.closed {
		h.ch.mu.Unlock()
		return nil, ns.hostError(method, CodeInternalError, "HOST_GONE: stdin closed before the host answered "+method, nil)
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
			return nil, ns.hostError(method, r.err.Code, r.err.Message, r.err.Data)
		}
		return r.result, nil
	case <-timer.C:
		drop()
		return nil, h.timedOut(method, method, wait)
	case <-ctx.Done():
		drop()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, h.timedOut(method, method, wait)
		}
		return nil, ctx.Err()
	}
}

// HostResult is part of every result type: the host's result as it was sent, for the
// members the type does not name.
type HostResult struct {
	Raw json.RawMessage `json:"-"`
}

func (r *HostResult) keep(raw json.RawMessage) { r.Raw = raw }

// call sends a request and decodes its result into out, keeping the raw result in its HostResult.
func (h *HostClient) call(ctx context.Context, method string, params any, out any) error {
	raw, err := h.Request(ctx, method, params)
	if err != nil {
		return err
	}
	return h.decode(method, raw, out)
}

// object is MALFORMED_RESULT when the host's result is not an object (nil, from a HostFunc,
// is the zero result).
func (h *HostClient) object(method string, raw json.RawMessage) error {
	if t := jsonType(raw); len(raw) > 0 && t != "object" {
		return h.malformed(method, "must be an object, got "+t)
	}
	return nil
}

// decode reads a result into out; a result that is not an object is MALFORMED_RESULT. A member
// of another type than out's field reads as absent (Raw keeps it), as TS and Python hand it on.
func (h *HostClient) decode(method string, raw json.RawMessage, out any) error {
	if err := h.object(method, raw); err != nil {
		return err
	}
	if len(raw) > 0 {
		var typeErr *json.UnmarshalTypeError
		if err := json.Unmarshal(raw, out); err != nil && !errors.As(err, &typeErr) {
			return h.malformed(method, "does not fit: "+err.Error())
		}
	}
	if r, ok := out.(interface{ keep(json.RawMessage) }); ok {
		r.keep(raw)
	}
	return nil
}

// fail is an error of the method, its code named in the method's namespace (a *WebError for
// web/*, else a *HostError).
func (h *HostClient) fail(method string, code int, message string) error {
	return ruleFor(method, nil).ns.hostError(method, code, message, nil)
}

// malformed is MALFORMED_RESULT (-32603): the host's result of the method is not of the shape
// the helper reads; what says how.
func (h *HostClient) malformed(method, what string) error {
	return h.fail(method, CodeInternalError, "MALFORMED_RESULT: the host's result "+what)
}

// hasString reports whether the object raw has a string at path (a member of a member ...).
func hasString(raw json.RawMessage, path ...string) bool {
	for _, key := range path {
		members, ok := decodeObject(raw)
		if !ok {
			return false
		}
		raw = members[key]
	}
	return jsonType(raw) == "string"
}

// invalid is the namespace's INVALID_REQUEST error: what the host would refuse, raised before sending.
func (h *HostClient) invalid(method, message string) error {
	ns := ruleFor(method, nil).ns
	return ns.hostError(method, ns.invalidCode, "INVALID_REQUEST: "+message, ns.localData(func(c *localErrorCodes) string { return c.invalid }))
}

// timedOut is the namespace's TIMEOUT error for a wait on what (the method, or another step).
func (h *HostClient) timedOut(method, what string, wait time.Duration) error {
	ms := wait.Milliseconds()
	if ms < 0 {
		ms = 0
	}
	ns := ruleFor(method, nil).ns
	return ns.hostError(method, ns.timeoutCode, fmt.Sprintf("TIMEOUT: no answer to %s within %d ms", what, ms), ns.localData(func(c *localErrorCodes) string { return c.timeout }))
}

// deadlineFor is the end of a wait of at most timeout: never past the invoke's deadline or ctx's.
func (h *HostClient) deadlineFor(ctx context.Context, timeout time.Duration) time.Time {
	deadline := time.Now().Add(timeout)
	if h != nil && !h.deadline.IsZero() && h.deadline.Before(deadline) {
		deadline = h.deadline
	}
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	return deadline
}

// log writes a line to the tool's log (stderr), when the client has one.
func (h *HostClient) log(format string, args ...any) {
	if h != nil && h.logf != nil {
		h.logf(format, args...)
	}
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

// stamp adds the invoke id to params.context.invoke_id and, when withMetadata, to
// params.metadata.executa_invoke_id, keeping whatever else the two objects hold.
func stamp(params json.RawMessage, invokeID string, withMetadata bool) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(params, &fields); err != nil {
		return nil, err
	}
	stamps := map[string]string{"context": "invoke_id"}
	if withMetadata {
		stamps["metadata"] = "executa_invoke_id"
	}
	for key, idKey := range stamps {
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
