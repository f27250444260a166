package executa

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"
)

// server answers frames: one per line of stdin, per the runtime contract.
type server struct {
	manifest *manifest
	bindings Bindings
	writer   *frameWriter
	channel  *channel
	stopper  *stopper
	log      func(string, ...any)
	errOut   io.Writer
	base     context.Context // the parent of every invoke's context; cancelled when the runtime stops

	// next is the invoke the last frame started, for the reading goroutine to run (see read);
	// only the reading goroutine touches it.
	next func()
}

// frame is one decoded frame; a field is nil when its key is absent (and "null" when null).
type frame struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// line handles one line of input.
func (s *server) line(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	if !utf8.Valid(b) {
		s.writer.error(nullID, CodeParseError, "Parse error: frame is not valid UTF-8", nil)
		return
	}
	var f frame
	if err := json.Unmarshal(b, &f); err != nil {
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax) || !json.Valid(b):
			s.writer.error(nullID, CodeParseError, "Parse error: "+err.Error(), nil)
		case b[0] == '[':
			s.writer.error(nullID, CodeInvalidRequest, "Invalid Request: batches are not supported", nil)
		default:
			s.writer.error(nullID, CodeInvalidRequest, "Invalid Request: expected an object, got "+jsonType(b), nil)
		}
		return
	}
	s.frame(&f)
}

func validID(id json.RawMessage) bool {
	switch jsonType(id) {
	case "string", "number", "null":
		return true
	}
	return false
}

func (s *server) frame(f *frame) {
	hasID := f.ID != nil
	id := nullID
	if hasID && validID(f.ID) {
		id = rawID(f.ID)
	}
	if f.Method == nil {
		if hasID && (f.Result != nil || f.Error != nil) {
			s.channel.settle(f.ID, f.Result, f.Error)
		} else {
			s.writer.error(id, CodeInvalidRequest, "Invalid Request: no 'method'", nil)
		}
		return
	}
	if !hasID {
		return // a notification: never answered
	}
	if s.stopper.isStopping() {
		s.log("executa: stopping; request %s not taken", f.ID)
		return
	}
	var method string
	switch {
	case !validID(f.ID):
		s.writer.error(nullID, CodeInvalidRequest, "Invalid Request: 'id' must be a string, a number or null", nil)
	case !isVersion2(f.JSONRPC):
		s.writer.error(id, CodeInvalidRequest, `Invalid Request: 'jsonrpc' must be "2.0"`, nil)
	case jsonType(f.Method) != "string" || json.Unmarshal(f.Method, &method) != nil:
		s.writer.error(id, CodeInvalidRequest, "Invalid Request: 'method' must be a string", nil)
	default:
		s.method(id, method, f.Params)
	}
}

func isVersion2(v json.RawMessage) bool {
	if string(v) == `"2.0"` {
		return true
	}
	var s string
	return jsonType(v) == "string" && json.Unmarshal(v, &s) == nil && s == "2.0"
}

func (s *server) method(id rawID, method string, params json.RawMessage) {
	switch method {
	case "invoke":
		s.invoke(id, params)
	case "describe":
		s.writer.resultJSON(id, s.manifest.describe)
	case "initialize":
		s.writer.result(id, s.initialize(params))
	case "health":
		s.writer.result(id, health{Status: "ready", Message: "", Details: healthDetails{Tools: len(s.manifest.tools), InFlight: s.stopper.inFlight()}})
	case "shutdown":
		s.writer.resultJSON(id, []byte(`{"ok":true}`))
		s.stopper.stop("shutdown")
	default:
		s.writer.error(id, CodeMethodNotFound, "Method not found: "+method, nil)
	}
}

type health struct {
	Status  string        `json:"status"`
	Message string        `json:"message"`
	Details healthDetails `json:"details"`
}

type healthDetails struct {
	Tools    int `json:"tools"`
	InFlight int `json:"in_flight"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type initializeResult struct {
	ProtocolVersion    string                    `json:"protocolVersion"`
	ServerInfo         serverInfo                `json:"serverInfo"`
	Capabilities       struct{}                  `json:"capabilities"`
	ClientCapabilities map[string]map[string]any `json:"client_capabilities"`
}

func (s *server) initialize(params json.RawMessage) initializeResult {
	var p struct {
		ProtocolVersion any `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p)
	asked, _ := p.ProtocolVersion.(string)
	v2 := asked == "2.0" || strings.HasPrefix(asked, "2.")
	s.channel.v2.Store(v2)
	version := "1.1"
	if v2 {
		version = "2.0"
	}
	return initializeResult{
		ProtocolVersion:    version,
		ServerInfo:         serverInfo{Name: s.manifest.serverName, Version: s.manifest.version},
		ClientCapabilities: s.manifest.clientCapabilities,
	}
}

// invokeParams are the params of an invoke; raw fields are checked by hand.
type invokeParams struct {
	Tool      json.RawMessage `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Context   json.RawMessage `json:"context"`
	InvokeID  json.RawMessage `json:"invoke_id"`
}

type invokeContext struct {
	Credentials map[string]json.RawMessage `json:"credentials"`
	InvokeID    json.RawMessage            `json:"invoke_id"`
	DeadlineMs  json.RawMessage            `json:"deadline_ms"`
}

func (s *server) invoke(id rawID, params json.RawMessage) {
	var p invokeParams
	var name string
	if jsonType(params) != "object" || json.Unmarshal(params, &p) != nil ||
		jsonType(p.Tool) != "string" || json.Unmarshal(p.Tool, &name) != nil {
		s.writer.error(id, CodeInvalidParams, "Missing 'tool' in params", nil)
		return
	}
	t := s.manifest.byName[name]
	if t == nil {
		s.writer.error(id, CodeMethodNotFound, "Unknown tool: "+name, map[string]any{"available_tools": s.manifest.toolNames})
		return
	}
	args := p.Arguments
	if args == nil {
		args = json.RawMessage("{}")
	}
	if jsonType(args) != "object" {
		s.writer.error(id, CodeInvalidParams, "'arguments' must be an object", nil)
		return
	}
	checked, problems := checkArguments(t, args)
	if problems != nil {
		s.writer.error(id, CodeInvalidParams, fmt.Sprintf("Invalid arguments for tool '%s'", name), map[string]any{"errors": problems})
		return
	}
	handler := s.bindings[name]
	if handler == nil {
		s.log("executa: tool '%s' is in manifest.json but has no binding; run `executa manifest`", name)
		s.writer.error(id, CodeInternalError, fmt.Sprintf("Tool '%s' failed unexpectedly; see the plugin's stderr", name), nil)
		return
	}
	if !s.stopper.start() {
		s.log("executa: stopping; request %s not taken", id)
		return
	}
	inv := s.invocation(t, &p)
	s.next = func() { s.run(id, inv, handler, checked) }
}

// invocation builds the tool's view of the invoke from params.context.
func (s *server) invocation(t *tool, p *invokeParams) *Invocation {
	var c invokeContext
	if jsonType(p.Context) == "object" {
		_ = json.Unmarshal(p.Context, &c)
	}
	inv := &Invocation{Tool: t.Name, errOut: s.errOut}
	invokeID := c.InvokeID
	if invokeID == nil || string(invokeID) == "null" {
		invokeID = p.InvokeID
	}
	switch jsonType(invokeID) {
	case "string":
		_ = json.Unmarshal(invokeID, &inv.InvokeID)
	case "number":
		inv.InvokeID = string(invokeID)
	}
	var deadlineMs float64
	if jsonType(c.DeadlineMs) == "number" && json.Unmarshal(c.DeadlineMs, &deadlineMs) == nil {
		inv.Deadline = time.UnixMilli(int64(deadlineMs))
	} else {
		inv.Deadline = time.Now().Add(time.Duration(t.timeoutSeconds() * float64(time.Second)))
	}
	for k, v := range c.Credentials {
		var value string
		if jsonType(v) == "string" && json.Unmarshal(v, &value) == nil {
			if inv.Credentials == nil {
				inv.Credentials = make(map[string]string, len(c.Credentials))
			}
			inv.Credentials[k] = value
		}
	}
	inv.Host = &HostClient{ch: s.channel, v2: s.channel.v2.Load(), invokeID: inv.InvokeID, deadline: inv.Deadline}
	return inv
}

// succeeded and failed are the two results of an answered invoke.
type succeeded struct {
	Success    bool            `json:"success"`
	Data       json.RawMessage `json:"data"`
	DurationMs int64           `json:"duration_ms"`
}

type failed struct {
	Success    bool   `json:"success"`
	Error      string `json:"error"`
	DurationMs int64  `json:"duration_ms"`
}

// run calls the handler on its own goroutine and answers the invoke.
func (s *server) run(id rawID, inv *Invocation, handler Handler, args json.RawMessage) {
	defer s.stopper.done()
	start := time.Now()
	ctx, cancel := context.WithDeadline(NewContext(s.base, inv), inv.Deadline)
	defer cancel()
	data, err := call(ctx, handler, args)
	elapsed := time.Since(start).Milliseconds()
	var tErr *ToolError
	var hErr *HostError
	var p *panicError
	switch {
	case err == nil:
		encoded, mErr := json.Marshal(data)
		if mErr != nil {
			s.log("executa: tool '%s' returned a value that is not serialisable as JSON: %v", inv.Tool, mErr)
			s.writer.error(id, CodeInternalError, "Result is not serialisable as JSON; see the plugin's stderr", nil)
			return
		}
		s.writer.result(id, succeeded{Success: true, Data: encoded, DurationMs: elapsed})
	case errors.As(err, &tErr):
		s.writer.result(id, failed{Error: tErr.Message, DurationMs: elapsed})
	case errors.As(err, &hErr):
		s.writer.result(id, failed{Error: hErr.Error(), DurationMs: elapsed})
	default:
		if errors.As(err, &p) {
			s.log("executa: tool '%s' panicked: %v\n%s", inv.Tool, p.value, p.stack)
		} else {
			s.log("executa: tool '%s' failed: %v", inv.Tool, err)
		}
		s.writer.error(id, CodeInternalError, fmt.Sprintf("Tool '%s' failed unexpectedly; see the plugin's stderr", inv.Tool), nil)
	}
}

type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string { return fmt.Sprint("panic: ", p.value) }

// call runs the handler, turning a panic into an error.
func call(ctx context.Context, h Handler, args json.RawMessage) (data any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: v, stack: debug.Stack()}
		}
	}()
	return h(ctx, args)
}
