// system-info: an Executa plugin written like the public Go basic example: a bufio.Scanner with a
// 1 MiB buffer, one response for every frame, health "healthy", and tool failures reported inside
// a successful result.
package main

import (
	"bufio"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

const maxStdioMessageBytes = 512 * 1024

var manifest = map[string]any{
	"name":         "example-go-tool",
	"display_name": "Example Go Tool",
	"version":      "1.0.0",
	"description":  "System information and hashing",
	"author":       "Anna Developer",
	"tools": []map[string]any{
		{"name": "system_info", "description": "OS, architecture and Go version", "parameters": []map[string]any{}},
		{
			"name":        "hash_text",
			"description": "SHA-256 or MD5 of a text",
			"parameters": []map[string]any{
				{"name": "text", "type": "string", "description": "The text to hash", "required": true},
				{"name": "algorithm", "type": "string", "description": "sha256 or md5", "required": false, "default": "sha256"},
			},
		},
		{
			"name":        "string_utils",
			"description": "length, reverse, upper or lower",
			"parameters": []map[string]any{
				{"name": "text", "type": "string", "description": "Input text", "required": true},
				{"name": "operation", "type": "string", "description": "length / reverse / upper / lower", "required": true},
			},
		},
	},
	"runtime": map[string]any{"type": "binary", "min_version": "1.0.0"},
}

type rpcRequest struct {
	JSONRPC string         `json:"jsonrpc"`
	Method  string         `json:"method"`
	Params  map[string]any `json:"params,omitempty"`
	ID      any            `json:"id"`
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type rpcResponse struct {
	JSONRPC string  `json:"jsonrpc"`
	ID      any     `json:"id"`
	Result  any     `json:"result,omitempty"`
	Error   *rpcErr `json:"error,omitempty"`
}

func hashText(args map[string]any) map[string]any {
	text, _ := args["text"].(string)
	algorithm, ok := args["algorithm"].(string)
	if !ok || algorithm == "" {
		algorithm = "sha256"
	}
	switch algorithm {
	case "sha256":
		h := sha256.Sum256([]byte(text))
		return map[string]any{"hash": hex.EncodeToString(h[:]), "algorithm": algorithm}
	case "md5":
		h := md5.Sum([]byte(text))
		return map[string]any{"hash": hex.EncodeToString(h[:]), "algorithm": algorithm}
	}
	return map[string]any{"error": fmt.Sprintf("Unsupported algorithm: %s. Available: sha256, md5", algorithm)}
}

func stringUtils(args map[string]any) map[string]any {
	text, _ := args["text"].(string)
	operation, _ := args["operation"].(string)
	switch operation {
	case "length":
		return map[string]any{"length": len([]rune(text))}
	case "reverse":
		r := []rune(text)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return map[string]any{"reversed": string(r)}
	case "upper":
		return map[string]any{"transformed": strings.ToUpper(text)}
	case "lower":
		return map[string]any{"transformed": strings.ToLower(text)}
	}
	return map[string]any{"error": fmt.Sprintf("Unknown operation: %s. Available: length, reverse, upper, lower", operation)}
}

func handleRequest(req rpcRequest) rpcResponse {
	switch req.Method {
	case "describe":
		return rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: manifest}
	case "health":
		return rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: map[string]any{"status": "healthy", "timestamp": time.Now().UTC().Format(time.RFC3339), "version": manifest["version"]}}
	case "invoke":
		tool, _ := req.Params["tool"].(string)
		if tool == "" {
			return rpcResponse{JSONRPC: "2.0", ID: req.ID, Error: &rpcErr{Code: -32602, Message: "Missing 'tool' in params"}}
		}
		args, _ := req.Params["arguments"].(map[string]any)
		if args == nil {
			args = map[string]any{}
		}
		var data map[string]any
		switch tool {
		case "system_info":
			host, _ := os.Hostname()
			data = map[string]any{"os": runtime.GOOS, "arch": runtime.GOARCH, "go_version": runtime.Version(), "hostname": host}
		case "hash_text":
			data = hashText(args)
		case "string_utils":
			data = stringUtils(args)
		default:
			return rpcResponse{JSONRPC: "2.0", ID: req.ID, Error: &rpcErr{Code: -32601, Message: fmt.Sprintf("Unknown tool: %s", tool)}}
		}
		return rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: map[string]any{"success": true, "data": data, "tool": tool}}
	}
	return rpcResponse{JSONRPC: "2.0", ID: req.ID, Error: &rpcErr{Code: -32601, Message: fmt.Sprintf("Method not found: %s", req.Method)}}
}

// sendResponse writes the response, through a temp file when it is larger than 512 KiB.
func sendResponse(resp rpcResponse) {
	out, err := json.Marshal(resp)
	if err != nil {
		fmt.Fprintf(os.Stderr, "marshal: %v\n", err)
		return
	}
	if len(out) > maxStdioMessageBytes {
		tmp := filepath.Join(os.TempDir(), fmt.Sprintf("executa-resp-%d.json", time.Now().UnixNano()))
		if err := os.WriteFile(tmp, out, 0o600); err == nil {
			ptr, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": resp.ID, "__file_transport": tmp})
			fmt.Fprintln(os.Stdout, string(ptr))
			return
		}
	}
	fmt.Fprintln(os.Stdout, string(out))
}

func main() {
	fmt.Fprintln(os.Stderr, "🔌 example Go plugin started")
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 0, 1024*1024), 1024*1024)
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		if line == "" {
			continue
		}
		var req rpcRequest
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			sendResponse(rpcResponse{JSONRPC: "2.0", ID: nil, Error: &rpcErr{Code: -32700, Message: "Parse error"}})
			continue
		}
		sendResponse(handleRequest(req))
	}
}
