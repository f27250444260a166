// Command plugin is the Go test plugin of the runtime vectors: templates/go's runtime serving
// the test-only tools of test/runtimes/test-plugin.json, whose path is the first argument.
// EXECUTA_TEST_CAPABILITIES (a JSON array) replaces the manifest's host_capabilities.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"syscall"

	"executa.test/runtime/internal/executa"
)

// stdoutCopy is taken before main runs, as some packages do: it must not reach the protocol.
var stdoutCopy = os.Stdout

func init() {
	fmt.Println("init: fmt.Println")
	syscall.Write(1, []byte("init: syscall.Write(1)\n"))
}

func main() {
	manifest, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if capabilities := os.Getenv("EXECUTA_TEST_CAPABILITIES"); capabilities != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(manifest, &m); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		m["host_capabilities"] = json.RawMessage(capabilities)
		manifest, _ = json.Marshal(m)
	}
	os.Exit(executa.Run(manifest, bindings))
}
