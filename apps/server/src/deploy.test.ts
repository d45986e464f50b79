import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, loadConfig } from './config.ts';

/**
 * deploy/: every setting comes from the environment, so the example settings file names every variable the server
 * reads (a new variable without its line fails here) and parses as it stands.
 */
const deploy = path.resolve(import.meta.dirname, '../../../deploy');
const example = fs.readFileSync(path.join(deploy, 'kelvin.env.example'), 'utf8');
/** `NAME=value` lines and commented `# NAME=value` ones (settings shown with their default) */
const listed = (commented: boolean) => [...example.matchAll(commented ? /^#?\s?([A-Z][A-Z0-9_]+)=/gm : /^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);

describe('deploy/kelvin.env.example', () => {
  it('names every variable the server reads', () => {
    expect(ENV_VARIABLES.length).toBeGreaterThan(20);
    expect(ENV_VARIABLES.filter((v) => !listed(true).includes(v))).toEqual([]);
  });

  it('parses as it stands', () => {
    const env = Object.fromEntries([...example.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    expect(Object.keys(env)).toEqual(listed(false));
    const config = loadConfig(env);
    expect(config).toMatchObject({ mqttUrl: 'mqtt://127.0.0.1:1883', simulator: false, demo: false });
    expect(config.databaseUrl).toMatch(/^postgres:\/\//);
  });
});
