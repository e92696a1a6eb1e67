// Runs the Playwright specs, or says loudly why they cannot run here (no Chromium).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
if (!candidates.some((candidate) => candidate && fs.existsSync(candidate))) {
  const line = '!'.repeat(78);
  console.warn(
    `${line}\n!! BROWSER TESTS SKIPPED: no Chromium at /usr/bin/chromium or CHROME_PATH.`,
  );
  console.warn(
    `!! Install it (Debian: apt-get install chromium) to run them. CI always does.\n${line}`,
  );
  process.exit(0);
}
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
