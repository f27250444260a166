package executa

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
)

// FileTransportThreshold is the largest response frame sent inline (512 KiB); a larger
// one goes by file transport.
const FileTransportThreshold = 512 * 1024

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

func frameStart(id rawID) []byte {
	b := make([]byte, 0, 128)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	return append(b, id...)
}

// result writes a response with a result that is already JSON.
func (w *frameWriter) resultJSON(id rawID, result []byte) {
	b := frameStart(id)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	b = append(b, '}')
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
	b := frameStart(id)
	b = append(b, `,"error":`...)
	b = append(b, body...)
	b = append(b, '}')
	w.response(id, b)
}

// request writes a request from the plugin to the host; requests never go by file transport.
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
	if len(frame) > FileTransportThreshold {
		if path, ok := w.toFile(frame); ok {
			b := frameStart(id)
			b = append(b, `,"__file_transport":`...)
			p, _ := json.Marshal(path)
			b = append(b, p...)
			frame = append(b, '}')
		} else if len(frame) > MaxFrameBytes {
			w.log("executa: the response to %s is %d bytes, over the 16 MiB frame limit", id, len(frame))
			w.error(id, CodeInternalError, "Response exceeds 16 MiB and could not go by file transport; see the plugin's stderr", nil)
			return
		}
	}
	w.write(frame)
}

// toFile writes the whole response into a new 0600 file with an unguessable name; the host
// reads and deletes it. When that fails the response goes inline.
func (w *frameWriter) toFile(frame []byte) (string, bool) {
	dir, err := filepath.Abs(os.TempDir())
	if err != nil {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, "executa-resp-"+randomHex()+".json")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		w.log("executa: file transport failed (%v); sending the response inline", err)
		return "", false
	}
	_, err = f.Write(frame)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		w.log("executa: file transport failed (%v); sending the response inline", err)
		return "", false
	}
	return path, true
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
