// sampling-tool: classifies text with the host's LLM (sampling/createMessage with a json_object
// responseFormat). A careful v2 plugin: a goroutine per request, every reverse request carries the
// invoke's context.invoke_id, and at EOF pending host calls are failed and every answer is written
// before main returns. Like the official SDKs, it asks the host for sampling unless an initialize
// offered another protocol version (Anna's local-dev runtime sends none).
package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

var manifest = map[string]any{
	"name":              "sampling-tool",
	"display_name":      "Sentiment (host LLM)",
	"version":           "0.2.0",
	"description":       "Classifies the sentiment of a text with the host's language model.",
	"host_capabilities": []string{"llm.sample"},
	"tools": []any{
		map[string]any{
			"name":        "classify",
			"description": "positive, negative or neutral, with a confidence",
			"parameters": []any{
				map[string]any{"name": "text", "type": "string", "description": "The text to classify", "required": true},
			},
		},
	},
	"runtime": map[string]any{"type": "binary"},
}

type hostReply struct {
	result json.RawMessage
	err    error
}

var (
	outMu   sync.Mutex
	mu      sync.Mutex
	pending = map[string]chan hostReply{}
	closed  bool
	v2      = true
)

func write(v map[string]any) {
	v["jsonrpc"] = "2.0"
	b, _ := json.Marshal(v)
	outMu.Lock()
	defer outMu.Unlock()
	os.Stdout.Write(append(b, '\n'))
}

func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func hostCall(method string, params map[string]any, invokeID string) (json.RawMessage, error) {
	mu.Lock()
	if !v2 {
		mu.Unlock()
		return nil, errors.New("sampling needs Executa protocol 2.0 (not negotiated)")
	}
	if closed {
		mu.Unlock()
		return nil, errors.New("the host closed stdin")
	}
	id := newID()
	ch := make(chan hostReply, 1)
	pending[id] = ch
	mu.Unlock()
	params["context"] = map[string]any{"invoke_id": invokeID}
	write(map[string]any{"id": id, "method": method, "params": params})
	select {
	case r := <-ch:
		return r.result, r.err
	case <-time.After(90 * time.Second):
		mu.Lock()
		delete(pending, id)
		mu.Unlock()
		return nil, errors.New("sampling timed out")
	}
}

func classify(text, invokeID string) (map[string]any, error) {
	raw, err := hostCall("sampling/createMessage", map[string]any{
		"messages":       []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "Classify the sentiment as JSON {\"label\": positive|negative|neutral, \"confidence\": 0..1}:\n" + text}}},
		"maxTokens":      100,
		"temperature":    0,
		"responseFormat": map[string]any{"type": "json_object"},
		"onUnsupported":  "text",
	}, invokeID)
	if err != nil {
		return nil, err
	}
	var reply struct {
		Content struct{ Text string } `json:"content"`
		Model   string                `json:"model"`
	}
	json.Unmarshal(raw, &reply)
	var parsed map[string]any
	if json.Unmarshal([]byte(reply.Content.Text), &parsed) != nil {
		return map[string]any{"success": false, "error": "the model did not answer with JSON", "data": map[string]any{"raw": reply.Content.Text}}, nil
	}
	return map[string]any{"success": true, "data": map[string]any{"sentiment": parsed, "model": reply.Model}}, nil
}

func handle(msg map[string]any) {
	id := msg["id"]
	params, _ := msg["params"].(map[string]any)
	switch msg["method"] {
	case "initialize":
		offered, _ := params["protocolVersion"].(string)
		mu.Lock()
		v2 = offered == "2.0"
		mu.Unlock()
		version, caps := "1.1", map[string]any{}
		if offered == "2.0" {
			version, caps = "2.0", map[string]any{"sampling": map[string]any{}}
		}
		write(map[string]any{"id": id, "result": map[string]any{"protocolVersion": version, "serverInfo": map[string]any{"name": manifest["display_name"], "version": manifest["version"]}, "client_capabilities": caps, "capabilities": map[string]any{}}})
	case "describe":
		write(map[string]any{"id": id, "result": manifest})
	case "health":
		write(map[string]any{"id": id, "result": map[string]any{"status": "ready", "message": "", "details": map[string]any{}}})
	case "invoke":
		if params["tool"] != "classify" {
			write(map[string]any{"id": id, "error": map[string]any{"code": -32601, "message": "Unknown tool"}})
			return
		}
		args, _ := params["arguments"].(map[string]any)
		text, ok := args["text"].(string)
		if !ok {
			write(map[string]any{"id": id, "error": map[string]any{"code": -32602, "message": "text (string) is required"}})
			return
		}
		ctx, _ := params["context"].(map[string]any)
		invokeID, _ := ctx["invoke_id"].(string)
		if invokeID == "" {
			invokeID, _ = params["invoke_id"].(string)
		}
		result, err := classify(text, invokeID)
		if err != nil {
			write(map[string]any{"id": id, "error": map[string]any{"code": -32603, "message": err.Error()}})
			return
		}
		write(map[string]any{"id": id, "result": result})
	default:
		write(map[string]any{"id": id, "error": map[string]any{"code": -32601, "message": "Method not found"}})
	}
}

func main() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	go func() { <-sigs; os.Exit(0) }()
	var wg sync.WaitGroup
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 0, 64*1024), 16*1024*1024+1)
	for scanner.Scan() {
		var raw any
		if len(scanner.Bytes()) == 0 {
			continue
		}
		if json.Unmarshal(scanner.Bytes(), &raw) != nil {
			write(map[string]any{"id": nil, "error": map[string]any{"code": -32700, "message": "Parse error"}})
			continue
		}
		msg, ok := raw.(map[string]any)
		if !ok {
			write(map[string]any{"id": nil, "error": map[string]any{"code": -32600, "message": "Invalid Request"}})
			continue
		}
		if _, isRequest := msg["method"]; !isRequest {
			id, _ := msg["id"].(string)
			mu.Lock()
			ch := pending[id]
			delete(pending, id)
			mu.Unlock()
			if ch != nil {
				if e, has := msg["error"]; has {
					b, _ := json.Marshal(e)
					ch <- hostReply{err: errors.New("host error: " + string(b))}
				} else {
					b, _ := json.Marshal(msg["result"])
					ch <- hostReply{result: b}
				}
			}
			continue
		}
		if _, has := msg["id"]; !has {
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); handle(msg) }()
	}
	mu.Lock()
	closed = true
	for id, ch := range pending {
		ch <- hostReply{err: errors.New("the host closed stdin")}
		delete(pending, id)
	}
	mu.Unlock()
	wg.Wait()
}
