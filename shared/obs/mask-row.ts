// Responses mask an event row's `data` (spec "Observability": all
// payload-bearing responses mask the data field; numeric telemetry survives).
// appendEvent already masks before storage and records the rules' version;
// this second pass covers rows stored under other rules or by a writer that
// did not say (an older build): see readMaskable in rows.ts.
//
// Fast path: maskJsonText parses, walks and re-serialises (~10 ms for a
// 5,000-event trace). A text is returned as stored only when the full pass
// provably could not change what it says: it has no backslash (an escape
// could spell a key or value the raw text does not show), no value pattern
// of the redactor fires anywhere in it (a pattern that fires inside a string
// value fires in the whole text too), and with everything but letters and
// digits removed it contains none of the words a credential-shaped key ends
// with (shared/redact.ts SENSITIVE_KEY; removing characters across the whole
// text only adds matches, never loses one). Anything else takes the full pass.
import { maskJsonText, maskText } from '../redact.ts';

/** Every ending of SENSITIVE_KEY in shared/redact.ts, as a substring (passw covers passwd and password, cookie setcookie, secret secretkey). */
const KEY_WORDS = /token|secret|passw|passphrase|apikey|privatekey|accesskey|credential|authorization|cookie|signature|masterkey|vaultkey/;

export function maskDataText(text: string): string {
  if (text === '{}') return text;
  if (!text.includes('\\') && !KEY_WORDS.test(text.toLowerCase().replace(/[^a-z0-9]/g, '')) && maskText(text) === text) return text;
  return maskJsonText(text);
}
