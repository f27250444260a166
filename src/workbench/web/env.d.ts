/** src/protocol's hostPlatformKey() reads these; the page never calls it (the bundle drops it), but the type check reads the file. */
declare const process: { readonly platform: string; readonly arch: string };
