package executa

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
)

// MaxResultBytes is the platform's limit on one response frame, without its newline (4 MiB):
// a larger response is replaced by a RESULT_TOO_LARGE error, as Anna's hosts would refuse it.
const MaxResultBytes = 4 * 1024 * 1024

// maxPendingOutput is how many bytes of answers may wait to be written before the runtime
// stops taking frames from stdin (a host that stops reading stdout stops being read).
const maxPendingOutput = 4 * 1024 * 1024

// frameWriter is the one writer of the protocol stream: one whole frame per line, each
// written with a single Write (and flushed when the writer buffers), serialised by a mutex.
type frameWriter struct {
	mu     sync.Mutex
	out    io.Writer
	log    func(format string, args ...any)
	closed atomic.Bool // set when the runtime stops: later frames are dropped
	broken func()      // called once when a write fails: the host went away
	failed bool

	pendingMu sync.Mutex
	pending   int        // bytes of frames waiting for mu or being written
	room      *sync.Cond // signalled when pending goes down
}

func newFrameWriter(out io.Writer, log func(string, ...any), broken func()) *frameWriter {
	w := &frameWriter{out: out, log: log, broken: broken}
	w.room = sync.NewCond(&w.pendingMu)
	return w
}

// waitForRoom blocks while more than maxPendingOutput bytes wait to be written.
func (w *frameWriter) waitForRoom() {
	w.pendingMu.Lock()
	for w.pending > maxPendingOutput && !w.closed.Load() {
		w.room.Wait()
	}
	w.pendingMu.Unlock()
}

// rawID is a request id as it arrived (a JSON string, number or null), echoed byte for byte.
type rawID []byte

var nullID = rawID("null")

// frameStart begins a response to id, with room for about `room` more bytes (so the frame and
// its newline are one allocation).
func frameStart(id rawID, room int) []byte {
	b := make([]byte, 0, 32+len(id)+room)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	return append(b, id...)
}

// result writes a response with a result that is already JSON.
func (w *frameWriter) resultJSON(id rawID, result []byte) {
	b := frameStart(id, len(result)+16)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	b = append(b, '}')
	w.response(id, b)
}

// succeeded writes an invoke's success, {"success":true,"data":…,"duration_ms":…}; data is
// json.Marshal's output (compact and HTML-escaped, as encoding it again would give).
func (w *frameWriter) succeeded(id rawID, data []byte, durationMs int64) {
	b := frameStart(id, len(data)+80)
	b = append(b, `,"result":{"success":true,"data":`...)
	b = append(b, data...)
	b = append(b, `,"duration_ms":`...)
	b = strconv.AppendInt(b, durationMs, 10)
	b = append(b, "}}"...)
	w.response(id, b)
}

// result writes a response; a result that cannot be encoded is answered -32603.
func (w *frameWriter) result(id rawID, result any) {
	data, err := json.Marshal(result)
	if err != nil {
		w.log("executa: could not serialise the result of request %s: %v", id, err)
		w.error(id, CodeInternalError, "Result is not serialisable as JSON; see the plugin's stderr", nil)
		return
	}
	w.resultJSON(id, data)
}

type errorObject struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// error writes an error response; data is left out when nil.
func (w *frameWriter) error(id rawID, code int, message string, data any) {
	body, err := json.Marshal(errorObject{Code: code, Message: message, Data: data})
	if err != nil {
		body, _ = json.Marshal(errorObject{Code: code, Message: message})
	}
	b := frameStart(id, len(body)+16)
	b = append(b, `,"error":`...)
	b = append(b, body...)
	b = append(b, '}')
	w.response(id, b)
}

// notify writes a notification (no id, no answer); params are encoded as JSON.
func (w *frameWriter) notify(method string, params any) {
	frame, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
	w.write(frame)
}

// request writes a request from the plugin to the host (the 4 MiB limit is on results only).
func (w *frameWriter) request(id, method string, params []byte) {
	b := make([]byte, 0, len(params)+96)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendQuote(b, id)
	b = append(b, `,"method":`...)
	m, _ := json.Marshal(method)
	b = append(b, m...)
	b = append(b, `,"params":`...)
	b = append(b, params...)
	b = append(b, '}')
	w.write(b)
}

func (w *frameWriter) response(id rawID, frame []byte) {
	if size := len(frame); size > MaxResultBytes {
		w.log("executa: the response to %s is %d bytes, over the platform's 4 MiB result limit", id, size)
		message := fmt.Sprintf("result too large: %d bytes is over the platform's 4 MiB result limit; "+
			"return a file reference instead (host/uploadFile or APS files)", size)
		data := map[string]any{"errorCode": "RESULT_TOO_LARGE", "result_size_bytes": size, "max_payload_bytes": MaxResultBytes}
		w.error(id, CodeInternalError, message, data)
		return
	}
	w.write(frame)
}

type flusher interface{ Flush() error }

// write sends one frame and its newline with a single Write, then flushes.
func (w *frameWriter) write(frame []byte) {
	frame = append(frame, '\n')
	w.pendingMu.Lock()
	w.pending += len(frame)
	w.pendingMu.Unlock()
	defer func() {
		w.pendingMu.Lock()
		w.pending -= len(frame)
		w.room.Broadcast()
		w.pendingMu.Unlock()
	}()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed.Load() || w.failed {
		return
	}
	_, err := w.out.Write(frame)
	if f, ok := w.out.(flusher); ok && err == nil {
		err = f.Flush()
	}
	if err != nil {
		w.failed = true
		w.log("executa: stdout: %v", err)
		if w.broken != nil {
			go w.broken()
		}
	}
}

// close drops every later frame: the runtime has stopped. It never waits for a write in
// progress (a host that stopped reading would hold it forever).
func (w *frameWriter) close() {
	w.closed.Store(true)
	w.pendingMu.Lock()
	w.room.Broadcast()
	w.pendingMu.Unlock()
}
