// Which `${NAME}` templates a gateway token may name (issue 15 #4). The token
// is sent, in clear, to whatever gateway URL the settings hold, so a template
// must never turn one of svc's own secrets into that token: svc's secret
// variables (access token, vault key, OTLP headers, search and embeddings
// keys), the provider keys (a gateway token is never one), and the names svc
// keeps in its vault. Such a template resolves to nothing, as an unset one
// does; the caller is told its name (never a value).
import { isSvcSecretEnvName } from '../config.ts';
import { isProviderKeyEnvName } from '../gateway/providers.ts';

export interface TemplatePolicy {
  /** Names of secrets svc holds beyond its own variables (the vault's), refused like them. Read only when a template is resolved. */
  heldSecretNames?: () => readonly string[];
  /** Told the variable name of each refused template, on every resolution (the caller logs it once). */
  onRefused?: (name: string) => void;
}

/** Whether a template naming `name` must not resolve (case-insensitive, as Windows reads variables). */
export function isRefusedTemplateName(name: string, heldSecretNames?: () => readonly string[]): boolean {
  if (isSvcSecretEnvName(name) || isProviderKeyEnvName(name)) return true;
  const upper = name.toUpperCase();
  return heldSecretNames?.().some((held) => held.toUpperCase() === upper) ?? false;
}
