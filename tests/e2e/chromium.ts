import fs from 'node:fs';

/** Chromium from CHROME_PATH or Debian's package; undefined when neither exists. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find(
    (candidate): candidate is string => !!candidate && fs.existsSync(candidate),
  );
}
