import { ExifTool } from 'exiftool-vendored';

/**
 * What exiftool reads from a file: every tag of every group (`-a -G1`), embedded ones too
 * (`-ee`), as `Group:Tag` → value. One exiftool process for the test file; `end` stops it.
 */
export function startExiftool() {
  const exiftool = new ExifTool({ maxProcs: 1 });
  return {
    async tags(file: string): Promise<Record<string, unknown>> {
      return exiftool.readRaw<Record<string, unknown>>(file, {
        readArgs: ['-a', '-G1', '-ee', '-u'],
      });
    },
    end: () => exiftool.end(),
  };
}

/** Tags about where and with what a video was made: none may be served. */
export const PLACE_OR_DEVICE_TAG =
  /gps|location|make|model|serial|software|xmp|content ?identifier|iso6709|author|creat(or|ion ?tool)|lens/i;

/** The tags of `tags` that tell where or with what a video was made, with their values. */
export function placeOrDeviceTags(tags: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(tags).filter(
      ([name, value]) =>
        PLACE_OR_DEVICE_TAG.test(name) ||
        (typeof value === 'string' && /48\.8584|48 deg 51|iPhone/.test(value)),
    ),
  );
}
