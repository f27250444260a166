// Package executatest drives a plugin process over stdio for tests, the way a host does:
// start it, send frames, read frames, answer its reverse requests, stop it.
package executatest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// Timeout is how long a wait for a frame lasts at most (generous: -race builds are slow).
const Timeout = 30 * time.Second

// Frame is one JSON-RPC frame the plugin wrote.
type Frame struct {
	ID            json.RawMessage `json:"id"`
	Method        string          `json:"method"`
	Params        json.RawMessage `json:"params"`
	Result        json.RawMessage `json:"result"`
	Error         *Error          `json:"error"`
	FileTransport string          `json:"__file_transport"`
	// Raw is the line as written, without its newline.
	Raw []byte `json:"-"`
}

// Error is a frame's error object.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// IsRequest reports whether the frame is a reverse request (plugin -> host).
func (f Frame) IsRequest() bool { return f.Method != "" }

// HasID reports whether the frame's id equals id (compared as JSON).
func (f Frame) HasID(id any) bool {
	want, _ := json.Marshal(id)
	return bytes.Equal(compact(f.ID), compact(want))
}

func compact(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// Plugin is a running plugin process.
type Plugin struct {
	t     testing.TB
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu      sync.Mutex
	frames  []Frame
	taken   []bool
	first   int      // frames before this index are all taken
	stray   []string // stdout lines that are not JSON objects
	stderr  bytes.Buffer
	changed chan struct{} // closed and replaced whenever something arrives
	exited  chan struct{}
	exitErr error
	nextID  int
}

// Start runs the command with the extra environment (KEY=VALUE) and stops it at the end of
// the test.
func Start(t testing.TB, env []string, command string, args ...string) *Plugin {
	t.Helper()
	cmd := exec.Command(command, args...)
	cmd.Env = append(os.Environ(), env...)
	p := &Plugin{t: t, cmd: cmd, changed: make(chan struct{}), exited: make(chan struct{})}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = writerFunc(func(b []byte) (int, error) {
		p.mu.Lock()
		p.stderr.Write(b)
		p.notify()
		p.mu.Unlock()
		return len(b), nil
	})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.stdin = stdin
	go p.read(stdout)
	t.Cleanup(func() {
		_ = p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// notify wakes the waiters; p.mu is held.
func (p *Plugin) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *Plugin) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			line = bytes.TrimSuffix(line, []byte("\n"))
			var f Frame
			p.mu.Lock()
			if json.Unmarshal(line, &f) == nil && bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) {
				f.Raw = line
				p.frames = append(p.frames, f)
				p.taken = append(p.taken, false)
			} else {
				p.stray = append(p.stray, string(line))
			}
			p.notify()
			p.mu.Unlock()
		}
		if err != nil {
			break
		}
	}
	err := p.cmd.Wait()
	p.mu.Lock()
	p.exitErr = err
	p.notify()
	p.mu.Unlock()
	close(p.exited)
}

// Send writes one frame: a value to encode as JSON, or a string / []byte sent as is (add
// the newline yourself).
func (p *Plugin) Send(frame any) {
	p.t.Helper()
	var b []byte
	switch f := frame.(type) {
	case string:
		b = []byte(f)
	case []byte:
		b = f
	default:
		var err error
		if b, err = json.Marshal(f); err != nil {
			p.t.Fatal(err)
		}
		b = append(b, '\n')
	}
	if _, err := p.stdin.Write(b); err != nil {
		p.t.Fatalf("writing to the plugin: %v", err)
	}
}

// Call sends a request with a fresh id and returns the response to it.
func (p *Plugin) Call(method string, params any) Frame {
	p.t.Helper()
	p.mu.Lock()
	p.nextID++
	id := fmt.Sprintf("call-%d", p.nextID)
	p.mu.Unlock()
	frame := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		frame["params"] = params
	}
	p.Send(frame)
	return p.Response(id)
}

// Invoke calls a tool; context may be nil.
func (p *Plugin) Invoke(tool string, args any, context any) Frame {
	p.t.Helper()
	params := map[string]any{"tool": tool, "arguments": args}
	if context != nil {
		params["context"] = context
	}
	return p.Call("invoke", params)
}

// Initialize sends initialize with the protocol version and returns the response.
func (p *Plugin) Initialize(version string) Frame {
	p.t.Helper()
	return p.Call("initialize", map[string]any{"protocolVersion": version})
}

// Await returns the first frame not yet returned that matches, waiting up to timeout.
func (p *Plugin) Await(match func(Frame) bool, timeout time.Duration) Frame {
	p.t.Helper()
	deadline := time.After(timeout)
	for {
		p.mu.Lock()
		for i := p.first; i < len(p.frames); i++ {
			if f := p.frames[i]; !p.taken[i] && match(f) {
				p.taken[i] = true
				for p.first < len(p.taken) && p.taken[p.first] {
					p.first++
				}
				p.mu.Unlock()
				return f
			}
		}
		changed, exited := p.changed, p.exitErr != nil || p.isExited()
		p.mu.Unlock()
		if exited {
			p.t.Fatalf("the plugin exited while a frame was awaited; stderr:\n%s", p.Stderr())
		}
		select {
		case <-changed:
		case <-deadline:
			p.t.Fatalf("no matching frame within %v; stderr:\n%s", timeout, p.Stderr())
		}
	}
}

func (p *Plugin) isExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// Next returns the next frame not yet returned.
func (p *Plugin) Next() Frame {
	p.t.Helper()
	return p.Await(func(Frame) bool { return true }, Timeout)
}

// Response returns the response with the id.
func (p *Plugin) Response(id any) Frame {
	p.t.Helper()
	return p.Await(func(f Frame) bool { return !f.IsRequest() && f.HasID(id) }, Timeout)
}

// ReverseRequest returns the next reverse request the plugin sent.
func (p *Plugin) ReverseRequest() Frame {
	p.t.Helper()
	return p.Await(Frame.IsRequest, Timeout)
}

// Reply answers a reverse request with a result.
func (p *Plugin) Reply(req Frame, result any) {
	p.t.Helper()
	p.Send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}

// ReplyError answers a reverse request with an error.
func (p *Plugin) ReplyError(req Frame, code int, message string) {
	p.t.Helper()
	p.Send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": code, "message": message}})
}

// Unread is the number of frames not yet returned.
func (p *Plugin) Unread() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, taken := range p.taken {
		if !taken {
			n++
		}
	}
	return n
}

// Quiet fails the test if the plugin writes a frame within d.
func (p *Plugin) Quiet(d time.Duration) {
	p.t.Helper()
	time.Sleep(d)
	if n := p.Unread(); n > 0 {
		p.t.Fatalf("expected no frame, got %d; first: %s", n, p.Await(func(Frame) bool { return true }, 0).Raw)
	}
}

// Stray returns the stdout lines that were not JSON objects.
func (p *Plugin) Stray() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.stray...)
}

// Stderr returns what the plugin wrote to stderr so far.
func (p *Plugin) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// WaitStderr waits until stderr contains s.
func (p *Plugin) WaitStderr(s string) {
	p.t.Helper()
	deadline := time.After(Timeout)
	for {
		p.mu.Lock()
		found, changed := strings.Contains(p.stderr.String(), s), p.changed
		p.mu.Unlock()
		if found {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			p.t.Fatalf("stderr never said %q; stderr:\n%s", s, p.Stderr())
		}
	}
}

// CloseStdin closes the plugin's stdin, as a host does to stop it.
func (p *Plugin) CloseStdin() {
	_ = p.stdin.Close()
}

// Signal sends a signal to the plugin process.
func (p *Plugin) Signal(sig os.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatalf("signal: %v", err)
	}
}

// Wait waits for the plugin to exit and returns its exit code (-1 when a signal killed it).
func (p *Plugin) Wait(timeout time.Duration) int {
	p.t.Helper()
	select {
	case <-p.exited:
	case <-time.After(timeout):
		p.t.Fatalf("the plugin did not exit within %v; stderr:\n%s", timeout, p.Stderr())
	}
	return p.cmd.ProcessState.ExitCode()
}
