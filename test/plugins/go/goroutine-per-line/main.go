// geo-lookup: answers each request in its own goroutine (a slow geocoder stand-in), with a mutex
// around stdout and a 16 MiB scanner. main returns as soon as stdin ends, without waiting for the
// goroutines, so answers still being computed at EOF are lost.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

var manifest = map[string]any{
	"name":         "geo-lookup",
	"display_name": "Geo Lookup",
	"version":      "0.8.0",
	"description":  "Finds coordinates for place names.",
	"tools": []any{
		map[string]any{
			"name":        "geocode",
			"description": "Latitude and longitude of a place",
			"parameters": []any{
				map[string]any{"name": "place", "type": "string", "description": "A place name", "required": true},
			},
		},
	},
	"runtime": map[string]any{"type": "go"},
}

var out sync.Mutex

func send(v map[string]any) {
	v["jsonrpc"] = "2.0"
	b, _ := json.Marshal(v)
	out.Lock()
	defer out.Unlock()
	os.Stdout.Write(append(b, '\n'))
}

func geocode(place string) map[string]any {
	time.Sleep(300 * time.Millisecond) // the upstream service takes a moment
	h := fnv.New32a()
	h.Write([]byte(place))
	n := h.Sum32()
	return map[string]any{"place": place, "lat": float64(n%18000)/100 - 90, "lon": float64(n/18000%36000)/100 - 180}
}

func handle(msg map[string]any) {
	id, hasID := msg["id"]
	if !hasID {
		return
	}
	method, _ := msg["method"].(string)
	params, _ := msg["params"].(map[string]any)
	switch method {
	case "describe":
		send(map[string]any{"id": id, "result": manifest})
	case "health":
		send(map[string]any{"id": id, "result": map[string]any{"status": "ready", "message": "", "details": map[string]any{}}})
	case "invoke":
		if tool, _ := params["tool"].(string); tool != "geocode" {
			send(map[string]any{"id": id, "error": map[string]any{"code": -32601, "message": "Unknown tool: " + fmt.Sprint(params["tool"])}})
			return
		}
		args, _ := params["arguments"].(map[string]any)
		place, ok := args["place"].(string)
		if !ok {
			send(map[string]any{"id": id, "error": map[string]any{"code": -32602, "message": "place (string) is required"}})
			return
		}
		send(map[string]any{"id": id, "result": map[string]any{"success": true, "data": geocode(place)}})
	default:
		send(map[string]any{"id": id, "error": map[string]any{"code": -32601, "message": "Method not found"}})
	}
}

func main() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	go func() {
		<-sigs
		os.Exit(0)
	}()
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for scanner.Scan() {
		line := scanner.Bytes()
		if len(line) == 0 {
			continue
		}
		var raw any
		if err := json.Unmarshal(line, &raw); err != nil {
			send(map[string]any{"id": nil, "error": map[string]any{"code": -32700, "message": "Parse error"}})
			continue
		}
		msg, ok := raw.(map[string]any)
		if !ok {
			send(map[string]any{"id": nil, "error": map[string]any{"code": -32600, "message": "Invalid Request"}})
			continue
		}
		go handle(msg)
	}
}
