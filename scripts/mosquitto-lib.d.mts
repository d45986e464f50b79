/** Types of mosquitto-lib.mjs (plain JavaScript: the benchmarks run it without a TypeScript loader). */
export interface Mosquitto {
  port: number;
  url: string;
  admin: { username: string; password: string };
  dir: string;
  pid: number | undefined;
  log(): string;
  stop(): Promise<void>;
}

export function findMosquitto(): { bin: string; plugin: string } | null;
export function startMosquitto(opts?: { admin?: { username: string; password: string } }): Promise<Mosquitto>;
