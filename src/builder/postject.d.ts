// postject ships no type declarations; this is the one function used.
declare module "postject" {
  export function inject(
    filename: string,
    resourceName: string,
    resourceData: Buffer,
    options?: { machoSegmentName?: string; sentinelFuse?: string; overwrite?: boolean },
  ): Promise<void>;
}
