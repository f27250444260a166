// Package executa is the plugin runtime: it speaks the Executa protocol (newline-delimited
// JSON-RPC 2.0 over stdin/stdout) on behalf of the tools in package main.
//
// It is vendored into the project and uses the standard library only. The behaviour it
// implements, line by line, is the runtime contract that create-executa documents in
// docs/runtime-contract.md; the same contract holds for the TypeScript and Python runtimes.
//
// A plugin's main function is one line:
//
//	os.Exit(executa.Run(manifestJSON, bindings))
//
// where manifestJSON is the embedded manifest.json and bindings comes from
// executa_bindings.go; both are written by `executa manifest`.
//
// One file per job: framing.go splits stdin into frames, writer.go writes stdout,
// dispatch.go answers each frame, validate.go checks invoke arguments, invocation.go and
// host.go give tools their context and the host client, stopping.go and signals.go stop
// the plugin cleanly, run.go wires it all together.
package executa
