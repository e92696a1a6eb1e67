import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({}, { cwd: '/srv/confab' });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: '/srv/confab/data',
      databaseUrl: undefined,
      eventName: 'Confab',
      adminUsername: 'admin',
      adminPassword: undefined,
      maxUploadMb: 15,
    });
  });

  it('reads and coerces the environment, treating empty values as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      EVENT_NAME: '  DevFest  ',
      MAX_UPLOAD_MB: '200',
      DATABASE_URL: 'postgres://localhost/test',
      SESSION_SECRET: 'x'.repeat(32),
      ADMIN_PASSWORD: '',
      TRUST_PROXY: 'true',
    });
    expect(config.port).toBe(8080);
    expect(config.eventName).toBe('DevFest');
    expect(config.maxUploadMb).toBe(200);
    expect(config.databaseUrl).toBe('postgres://localhost/test');
    expect(config.adminPassword).toBeUndefined();
    expect(config.trustProxy).toBe(1);
  });

  it('needs a bucket for S3 media and a shared secret with PostgreSQL', () => {
    expect(() => loadConfig({ MEDIA_STORE: 's3' })).toThrow(
      /S3_BUCKET: is required when MEDIA_STORE=s3/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/confab' })).toThrow(
      /SESSION_SECRET: is required with DATABASE_URL/,
    );
    const config = loadConfig({
      MEDIA_STORE: 's3',
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.mediaStore).toBe('s3');
    expect(config.s3).toMatchObject({ bucket: 'media', region: 'us-east-1', forcePathStyle: true });
  });

  it('bounds unfinished uploads: 3 per attendee and 2 GB in all by default', () => {
    const mb = 1024 * 1024;
    expect(loadConfig({}).unfinishedUploads).toEqual({ perAttendee: 3, budgetBytes: 2048 * mb });
    expect(
      loadConfig({ UPLOADS_UNFINISHED_PER_ATTENDEE: '5', UPLOADS_DISK_BUDGET_MB: '512' })
        .unfinishedUploads,
    ).toEqual({ perAttendee: 5, budgetBytes: 512 * mb });
    // Never less than one upload of the largest size.
    expect(loadConfig({ MAX_UPLOAD_MB: '4096' }).unfinishedUploads.budgetBytes).toBe(4096 * mb);
    expect(() => loadConfig({ MAX_UPLOAD_MB: '100', UPLOADS_DISK_BUDGET_MB: '50' })).toThrow(
      /UPLOADS_DISK_BUDGET_MB: must be at least MAX_UPLOAD_MB/,
    );
    expect(() => loadConfig({ UPLOADS_UNFINISHED_PER_ATTENDEE: '0' })).toThrow(
      /UPLOADS_UNFINISHED_PER_ATTENDEE/,
    );
  });

  it('lists every problem at once', () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: 'abc',
        MAX_UPLOAD_MB: '-1',
        DATABASE_URL: 'mysql://x',
        ADMIN_PASSWORD: 'short',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT/);
    expect(problems).toMatch(/MAX_UPLOAD_MB/);
    expect(problems).toMatch(/DATABASE_URL: must be a postgres/);
    expect(problems).toMatch(/ADMIN_PASSWORD: must be at least 8/);
  });

  it('reads the CORS allow-list: none by default, origins normalised, anything else refused', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({ CORS_ORIGINS: ' https://App.example.com , http://localhost:5173/ ' })
        .corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.com' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('the deploy example', () => {
  it('overwrites X-Forwarded-For at the edge, and the instances trust exactly that one hop', async () => {
    const { readFile } = await import('node:fs/promises');
    const nginx = await readFile('deploy/nginx.conf', 'utf8');
    const env = await readFile('deploy/confab.env.example', 'utf8');
    const proxied = nginx.match(/proxy_pass /g)?.length ?? 0;
    expect(proxied).toBeGreaterThan(0);
    expect(nginx.match(/proxy_set_header X-Forwarded-For \$remote_addr;/g)?.length).toBe(proxied);
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
    const trust = /^TRUST_PROXY=(.*)$/m.exec(env)?.[1] ?? '';
    expect(loadConfig({ TRUST_PROXY: trust }).trustProxy).toBe(1);
  });
});
