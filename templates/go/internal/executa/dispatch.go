package executa

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
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
	// starting counts the invokes of the current burst (see startBurst); handedOver is when
	// an invoke last handed the reading over (Unix ns).
	starting   atomic.Int32
	handedOver atomic.Int64
}

// fields is a decoded JSON object: member names are matched exactly (encoding/json matches
// struct fields case-insensitively, so the protocol's objects are never decoded into structs).
type fields map[string]json.RawMessage

// decodeObject decodes a JSON object; ok is false for anything else.
func decodeObject(raw json.RawMessage) (fields, bool) {
	var f fields
	if jsonType(raw) != "object" || json.Unmarshal(raw, &f) != nil {
		return nil, false
	}
	return f, true
}

const badID = "Invalid Request: id must be a string, an integer within ±(2^53−1), or null"

// line handles one line of input.
func (s *server) line(b []byte) {
	if len(bytes.Trim(b, " \t\r\n")) == 0 {
		return
	}
	if !utf8.Valid(b) {
		s.writer.error(nullID, CodeParseError, "Parse error: frame is not valid UTF-8", nil)
		return
	}
	if nestsTooDeep(b) {
		valid, idText, response := scanDeep(b)
		if !valid {
			s.writer.error(nullID, CodeParseError, fmt.Sprintf("Parse error: not valid JSON (and nested deeper than %d levels)", maxDepth), nil)
			return
		}
		if response { // never answered: the reverse request it names fails instead
			s.channel.tooDeep(idText)
			return
		}
		id := nullID
		if idText != nil {
			id, _ = requestID(idText)
		}
		s.writer.error(id, CodeInvalidParams, fmt.Sprintf("Invalid params: JSON nests deeper than %d levels", maxDepth), nil)
		return
	}
	var f fields
	if err := json.Unmarshal(b, &f); err != nil || f == nil {
		if !json.Valid(b) {
			s.writer.error(nullID, CodeParseError, "Parse error: "+err.Error(), nil)
		} else {
			s.writer.error(nullID, CodeInvalidRequest, "Invalid Request: expected a JSON object, got "+jsonType(bytes.TrimLeft(b, " \t\r\n")), nil)
		}
		return
	}
	s.frame(f)
}

func (s *server) frame(f fields) {
	rawIDValue, hasID := f["id"]
	id, idOK := nullID, false
	if hasID {
		id, idOK = requestID(rawIDValue)
	}
	methodRaw, hasMethod := f["method"]
	if !hasMethod {
		_, hasResult := f["result"]
		errorRaw, hasError := f["error"]
		switch {
		case hasID && hasError:
			s.channel.settle(rawIDValue, nil, errorRaw, true)
		case hasID && hasResult:
			s.channel.settle(rawIDValue, f["result"], nil, false)
		case hasID && s.channel.waitsFor(rawIDValue):
			s.channel.malformedAnswer(rawIDValue, "has neither result nor error")
		default:
			s.writer.error(id, CodeInvalidRequest, "Invalid Request: no 'method'", nil)
		}
		return
	}
	if !hasID {
		return // a notification: never answered
	}
	var method string
	switch {
	case !idOK:
		s.writer.error(nullID, CodeInvalidRequest, badID, nil)
	case !isVersion2(f["jsonrpc"]):
		s.writer.error(id, CodeInvalidRequest, `Invalid Request: 'jsonrpc' must be "2.0"`, nil)
	case jsonType(methodRaw) != "string" || json.Unmarshal(methodRaw, &method) != nil:
		s.writer.error(id, CodeInvalidRequest, "Invalid Request: 'method' must be a string", nil)
	case s.stopper.isStopping():
		s.writer.error(id, CodeShuttingDown, "Shutting down", nil)
	default:
		s.method(id, method, f["params"])
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
	var asked string
	p, _ := decodeObject(params)
	if jsonType(p["protocolVersion"]) == "string" {
		_ = json.Unmarshal(p["protocolVersion"], &asked)
	}
	v2 := asked == "2.0" || strings.HasPrefix(asked, "2.")
	version, declined := "2.0", ""
	if !v2 {
		version, declined = "1.1", "this host's initialize offered "+offered(p["protocolVersion"])
	}
	s.channel.declined.Store(declined)
	return initializeResult{
		ProtocolVersion:    version,
		ServerInfo:         serverInfo{Name: s.manifest.serverName, Version: s.manifest.version},
		ClientCapabilities: s.manifest.clientCapabilities,
	}
}

// offered is what an initialize offered, for the refusal of a reverse request: `protocolVersion "1.1"`.
func offered(asked json.RawMessage) string {
	switch t := jsonType(asked); t {
	case "nothing":
		return "no protocolVersion"
	case "string":
		var v string
		_ = json.Unmarshal(asked, &v)
		if r := []rune(v); len(r) > 40 {
			v = string(r[:40])
		}
		q, _ := json.Marshal(v)
		return "protocolVersion " + string(q)
	default:
		return "a protocolVersion that is not a string (" + t + ")"
	}
}

// latestDeadlineMs is the latest deadline a host can give: the end of JavaScript's Date range.
const latestDeadlineMs = 8.64e15

func (s *server) invoke(id rawID, params json.RawMessage) {
	p, ok := decodeObject(params)
	var name string
	if !ok || jsonType(p["tool"]) != "string" || json.Unmarshal(p["tool"], &name) != nil {
		s.writer.error(id, CodeInvalidParams, "Missing 'tool' in params", nil)
		return
	}
	t := s.manifest.byName[name]
	if t == nil {
		s.writer.error(id, CodeMethodNotFound, "Unknown tool: "+name, map[string]any{"available_tools": s.manifest.toolNames})
		return
	}
	args, given := p["arguments"]
	if !given {
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
		s.writer.error(id, CodeShuttingDown, "Shutting down", nil)
		return
	}
	inv := s.invocation(t, p)
	s.next = func() { s.run(id, inv, handler, checked) }
}

// invokeIDText is an invoke id as a string: a string as is, a finite number in its shortest
// JSON form; ok is false (absent) for anything else.
func invokeIDText(raw json.RawMessage) (string, bool) {
	switch jsonType(raw) {
	case "string":
		var id string
		return id, json.Unmarshal(raw, &id) == nil
	case "number":
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return "", false
		}
		return shortestJSON(f), true
	}
	return "", false
}

// invocation builds the tool's view of the invoke from params.context.
func (s *server) invocation(t *tool, p fields) *Invocation {
	c, _ := decodeObject(p["context"])
	inv := &Invocation{Tool: t.Name, errOut: s.errOut}
	var ok bool
	if inv.InvokeID, ok = invokeIDText(c["invoke_id"]); !ok {
		inv.InvokeID, _ = invokeIDText(p["invoke_id"]) // the legacy place
	}
	deadlineMs, err := strconv.ParseFloat(string(c["deadline_ms"]), 64)
	if jsonType(c["deadline_ms"]) == "number" && err == nil {
		inv.Deadline = time.UnixMilli(int64(math.Min(math.Max(deadlineMs, 0), latestDeadlineMs)))
	} else {
		inv.Deadline = time.Now().Add(time.Duration(t.timeoutSeconds() * float64(time.Second)))
	}
	credentials, _ := decodeObject(c["credentials"])
	for k, v := range credentials {
		var value string
		if jsonType(v) == "string" && json.Unmarshal(v, &value) == nil {
			if inv.Credentials == nil {
				inv.Credentials = make(map[string]string, len(credentials))
			}
			inv.Credentials[k] = value
		}
	}
	declined, _ := s.channel.declined.Load().(string)
	inv.Host = &HostClient{ch: s.channel, declined: declined, invokeID: inv.InvokeID, deadline: inv.Deadline, logf: inv.Logf}
	return inv
}

// failed is the result of an invoke whose tool returned an error (frameWriter.succeeded writes the other).
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
	inv.finished.Store(true) // the invoke is answered next: progress after this is refused
	elapsed := time.Since(start).Milliseconds()
	s.stopper.answering()
	var tErr *ToolError
	var hErr *HostError
	var p *panicError
	switch {
	case err == nil:
		encoded, mErr := json.Marshal(data)
		var unsupported *json.UnsupportedValueError
		switch {
		case errors.As(mErr, &unsupported) && (unsupported.Str == "NaN" || strings.HasSuffix(unsupported.Str, "Inf")):
			s.writer.error(id, CodeInternalError, fmt.Sprintf("Tool '%s' returned a value that is not valid JSON (NaN or Infinity)", inv.Tool), nil)
			return
		case mErr != nil:
			s.log("executa: tool '%s' returned a value that is not valid JSON: %v", inv.Tool, mErr)
			s.writer.error(id, CodeInternalError, fmt.Sprintf("Tool '%s' returned a value that is not valid JSON; see the plugin's stderr", inv.Tool), nil)
			return
		}
		s.writer.succeeded(id, encoded, elapsed)
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
