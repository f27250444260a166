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
// A tool reaches the host's services through executa.FromContext(ctx).Host, a *HostClient
// with one method per service (create-executa's docs/host-services.md): Sample, AgentComplete,
// AgentCreate / AgentSession / AgentList, Embed, ImageGenerate / ImageEdit, Upload,
// FilesUpload / FilesDownloadURL / FilesList / FilesDelete, StorageGet / StorageSet /
// StorageDelete / StorageList, and Request for any other method. Each needs its capability in
// executa.json's host_capabilities and a host that negotiated protocol 2.0; every failure is a
// *HostError. WithDisplay puts a display block in a tool's result.
//
// One file per job: framing.go splits stdin into frames, writer.go writes stdout,
// dispatch.go answers each frame, validate.go checks invoke arguments, invocation.go gives
// tools their context, host.go sends reverse requests under the rules of namespaces.go,
// and sampling.go (with schema.go), agent.go, models.go, uploads.go, files.go, storage.go
// and display.go are the services; stopping.go and signals.go stop the plugin cleanly,
// run.go wires it all together.
package executa
