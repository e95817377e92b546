// Where the launcher's user-facing lines go. Commands take an Io instead of
// calling console directly so unit tests can capture what a user would read.
import type { Config } from '../config.ts';
import { readStudioAccessToken } from '../settings/index.ts';
import { svcPaths, type SvcPaths } from '../paths.ts';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export const consoleIo: Io = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** Everything a launcher command needs: the config, its paths, its output. */
export interface LauncherContext {
  config: Config;
  paths: SvcPaths;
  io: Io;
  /** The gate token the launcher can present (never printed). */
  accessToken: string | null;
}

export function createContext(config: Config, io: Io = consoleIo): LauncherContext {
  const paths = svcPaths(config);
  // Same order as the server: the environment first, then settings.json, so a
  // dashboard gated by a token in settings.json is still recognised as ours.
  const accessToken = config.accessToken ?? readStudioAccessToken(paths.settingsFile);
  return { config, paths, io, accessToken };
}
