import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../tests/support/media.ts';
import {
  parseProbe,
  probeVideo,
  renderVideo,
  renditionPlan,
  renditionSize,
  runFfmpeg,
} from './ffmpeg.ts';

/** What ffmpeg 4.1 writes for an iPhone's portrait HEVC clip. */
const IPHONE = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'IMG_0420.MOV':
  Metadata:
    major_brand     : qt
    com.apple.quicktime.location.ISO6709: +48.8584+002.2945+035.000/
  Duration: 00:01:02.50, start: 0.000000, bitrate: 16000 kb/s
    Stream #0:0(und): Video: hevc (Main 10) (hvc1 / 0x31637668), yuv420p10le(tv, bt2020nc/bt2020/arib-std-b67), 1920x1080, 15000 kb/s, 29.98 fps, 30 tbr, 600 tbn, 600 tbc (default)
    Metadata:
      rotate          : 90
      handler_name    : Core Media Video
    Side data:
      displaymatrix: rotation of -90.00 degrees
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, stereo, fltp, 160 kb/s (default)
    Stream #0:2(und): Data: none (mebx / 0x7862656D), 0 kb/s (default)
At least one output file must be specified
`;

describe('reading ffmpeg -i', () => {
  it('finds codec, profile, pixel format, size, rotation, duration and audio', () => {
    const probe = parseProbe(IPHONE);
    expect(probe).toEqual({
      durationSeconds: 62.5,
      video: {
        codec: 'hevc',
        profile: 'Main 10',
        pixelFormat: 'yuv420p10le',
        width: 1920,
        height: 1080,
        rotation: 90,
      },
      audio: { codec: 'aac' },
    });
    if (!probe) return;
    expect(renditionSize(probe)).toEqual({ width: 1080, height: 1920 });
    expect(renditionPlan(probe)).toEqual({ video: 'encode', audio: 'copy' });
  });

  it('takes the rotation from the display matrix alone, and finds no video in what has none', () => {
    const matrixOnly = IPHONE.replace(/ {6}rotate {10}: 90\n/, '').replace('-90.00', '90.00');
    expect(parseProbe(matrixOnly)?.video.rotation).toBe(270);
    expect(parseProbe('clip.mp4: Invalid data found when processing input\n')).toBeUndefined();
  });

  it('copies H.264 within 1080p, and encodes what is larger, 10-bit or another codec', () => {
    const h264 = (size: string, format = 'yuv420p(tv, bt709)', profile = 'High') =>
      parseProbe(
        `  Duration: 00:00:10.00, start: 0.000000\n    Stream #0:0: Video: h264 (${profile}) (avc1 / 0x31637661), ${format}, ${size} [SAR 1:1 DAR 16:9], 30 fps\n    Stream #0:1: Audio: opus, 48000 Hz, stereo\n`,
      );
    const plan = (probe: ReturnType<typeof parseProbe>) => probe && renditionPlan(probe);
    expect(plan(h264('1920x1080'))).toEqual({ video: 'copy', audio: 'encode' });
    expect(plan(h264('1080x1920'))).toEqual({ video: 'copy', audio: 'encode' });
    expect(plan(h264('3840x2160'))?.video).toBe('encode');
    expect(plan(h264('1920x1080', 'yuv420p10le(tv)', 'High 10'))?.video).toBe('encode');
    const big = h264('3840x2160');
    expect(big && renditionSize(big)).toEqual({ width: 1920, height: 1080 });
  });
});

describe('renditions of rotated clips', () => {
  it('keeps the rotation of a copied H.264 clip, and turns an encoded one upright', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-ffmpeg-'));
    try {
      // A phone's portrait H.264 clip: coded landscape, turned 90° clockwise when shown. (4.1
      // writes the `rotate` tag's angle the other way round from how it reads it: 270 is 90.)
      const rotated = path.join(dir, 'rotated.mp4');
      const made = await runFfmpeg(
        [
          '-i',
          path.join(FIXTURES, 'clip.mp4'),
          '-c',
          'copy',
          '-metadata:s:v:0',
          'rotate=270',
          rotated,
        ],
        { timeoutMs: 30_000 },
      );
      expect(made.code).toBe(0);
      const probe = await probeVideo(rotated);
      expect(probe.video.rotation).toBe(90);
      expect(renditionPlan(probe).video).toBe('copy');
      const copied = path.join(dir, 'copied.mp4');
      await renderVideo(rotated, copied, probe, { timeoutMs: 30_000 });
      expect((await probeVideo(copied)).video).toMatchObject({
        codec: 'h264',
        width: 160,
        height: 120,
        rotation: 90,
      });

      const hevc = path.join(FIXTURES, 'portrait-hevc.mov');
      const encoded = path.join(dir, 'encoded.mp4');
      await renderVideo(hevc, encoded, await probeVideo(hevc), { timeoutMs: 60_000 });
      expect((await probeVideo(encoded)).video).toMatchObject({
        codec: 'h264',
        width: 180,
        height: 320,
        rotation: 0,
      });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
