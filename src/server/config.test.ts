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
      ADMIN_PASSWORD: '',
      TRUST_PROXY: 'true',
    });
    expect(config.port).toBe(8080);
    expect(config.eventName).toBe('DevFest');
    expect(config.maxUploadMb).toBe(200);
    expect(config.databaseUrl).toBe('postgres://localhost/test');
    expect(config.adminPassword).toBeUndefined();
    expect(config.trustProxy).toBe(true);
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
});
