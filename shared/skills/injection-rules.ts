// The injection scan's rule table (see injection-scan.ts for how it is
// applied, and for the edges the rules were drawn on). Every rule blocks.
// Pinned by the payload table in test/unit/injection-scan.test.ts.
//
// Every rule must stay linear in the input (a 2 MB body is scanned on each
// install; test/bench/skill-scan.ts measures the hostile shapes): no two
// unbounded quantifiers that can share the same characters may sit side by
// side (`\s*\]?\s*` rescans a run of spaces from every split: write
// `\s*(?:\]\s*)?`), and a lazy or backtracking search from a start position
// is bounded (`[^\n]{0,80}?`). Line rules never see a line break in `\s`
// (the scanner compiles it as `[^\S\n]`), so `^\s*` cannot run across a
// field of blank lines. Where a pattern cannot be both linear and exact, the
// rule finds its matches in code (`more`).
import { HIDDEN_WORDS, hiddenElementSpans, type Span } from './hidden-html.ts';

export interface ScanRule {
  id: string;
  description: string;
  /** Global (`g`); `u` only where a rule needs Unicode classes. */
  pattern: RegExp;
  /** `line`: each line on its own; `field`: the whole field (phrases across line breaks). */
  span: 'line' | 'field';
  /** Spans where the pattern's characters are legitimate: a match wholly inside one is no finding. */
  allow?: RegExp;
  /**
   * More matches, found by a linear pass in code (field rules only): merged
   * with the pattern's in start order, a match overlapping an earlier one
   * dropped, as one pattern's own matches never overlap.
   */
  more?: (text: string) => Iterable<Span>;
}


// ---------------------------------------------------------------- fragments

// No `u` on the word rules: they need no Unicode classes, and V8 runs their
// lookaheads several times slower with it (measured on hostile 2 MB bodies).
const re = (source: string, flags = 'gi') => new RegExp(source, flags);
const SECRET_NOUN = String.raw`(?:secrets?|credentials?|api[\s_-]?keys?|access[\s_-]?keys?|tokens?|passwords?|passphrases?|private[\s_-]?keys?|ssh[\s_-]?keys?|env(?:ironment)?[\s_-]?var(?:iable)?s?|session[\s_-]?(?:ids?|cookies?))`;
const SECRET_FILE = String.raw`(?:(?:~|\$HOME|\$\{HOME\}|\/root|\/home\/[\w.-]+)\/\.(?:ssh(?!\/(?:[\w.-]*\.pub|known_hosts|config|authorized_keys)\b)|aws\/credentials|netrc|git-credentials|docker\/config\.json|kube\/config|npmrc|pgpass)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\/etc\/(?:passwd|shadow|sudoers|gshadow)\b)`;
const ENV_FILE = String.raw`(?:^|[\s'"\/=(<\x60])\.env(?!\.(?:example|sample|template|dist|defaults?)\b)(?![\w.-])`;
const URL = String.raw`(?:\b(?:https?|ftp|wss?):\/\/|\bwebhook\b|\/dev\/tcp\/)`;
const NET_TOOL = String.raw`(?:\b(?:curl|wget|nc|ncat|netcat|socat|telnet|fetch|axios|urllib|requests\.(?:post|put|get)|http\.request|invoke-webrequest|invoke-restmethod|iwr|irm)\b|${URL})`;
const ENV_DUMP = String.raw`(?:\bprintenv\b|\$\(\s*(?:env|set)\s*\)|\x60\s*env\s*\x60|(?:^|[|;&(]\s*)env\s*\||\/proc\/(?:self|\d+|\$\$)\/environ|JSON\.stringify\(\s*process\.env\s*\)|\bprocess\.env\b(?![^\S\n]*[.[])|json\.dumps\(\s*(?:dict\(\s*)?os\.environ|\bos\.environ\b(?![^\S\n]*(?:\[|\.get)))`;
const SHELL = String.raw`(?:sudo\s+(?:-\S+\s+){0,4})?(?:(?:ba|z|k|da|c|tc|fi)?sh|python[23]?|perl|ruby|node|php|iex|invoke-expression|source)\b`;
// -------------------------------------------------------------------- rules

export const SCAN_RULES: readonly ScanRule[] = [
  {
    id: 'instruction-override',
    description: 'tells the model to ignore, forget or override its earlier or system instructions',
    span: 'field',
    pattern: re(
      String.raw`\b(?:ignore|disregard|forget|discard|abandon)\s+(?:(?:all|any|each|every|of|the|your|my|these|those|other)\s+){0,6}(?:previous|prior|above|preceding|earlier|former|original|initial|system|developer)\s+(?:instructions?|prompts?|rules|directions?|directives?|guidelines|guidance|context|messages?|commands?|orders|constraints|polic(?:y|ies))\b` +
        String.raw`|\b(?:override|overwrite|bypass|replace)\s+(?:(?:all|any|the|your|its)\s+){0,6}(?:system|developer|safety)\s+(?:prompts?|instructions?|rules|guidelines|messages?)\b` +
        String.raw`|\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:above|before|previously|prior|you\s+(?:were|have\s+been)\s+told|(?:said|written|stated)\s+(?:above|before))`,
    ),
  },
  {
    id: 'role-reassignment',
    description: 'claims the model is now a different, unrestricted persona',
    span: 'field',
    pattern: re(
      String.raw`\byou\s+are\s+now\s+(?:(?:a|an|the|my|in|no\s+longer)\s+)?(?:[\w-]+\s+){0,2}?(?:assistant|ai|agent|model|bot|chatbot|persona|character|dan|mode|jailbroken|unrestricted|unfiltered|uncensored|free\s+(?:from|of))\b` +
        String.raw`|\bfrom\s+now\s+on,?\s+you\s+(?:will\s+(?:act|behave|respond|pretend|roleplay)|are\s+(?:a|an|no\s+longer)\b|must\s+(?:ignore|obey|act|pretend))` +
        String.raw`|\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue)\b` +
        String.raw`|\bpretend\s+(?:that\s+)?you\s+(?:are|have)\s+(?:no\s+(?:rules|restrictions|limits|guidelines)|not\s+bound)` +
        String.raw`|\b(?:dan|god|jailbreak)\s+mode\s+(?:enabled|activated|on)\b`,
    ),
  },
  {
    id: 'system-prompt-claim',
    description: 'presents itself as a new or real system prompt',
    span: 'field',
    pattern: re(
      String.raw`\b(?:new|updated|revised|real|actual|true|secret|hidden|overriding)\s+system\s+(?:prompt|message|instructions?)\b` +
        String.raw`|\b(?:real|actual|true|secret|hidden|overriding)\s+instructions?\s*(?::|are\b|follow\b)` +
        String.raw`|\b(?:this|the\s+following)\s+is\s+(?:your|the)\s+(?:new\s+)?system\s+prompt\b` +
        String.raw`|\bsystem\s+(?:prompt|message)\s+(?:override|update|injection)\b` +
        String.raw`|\b(?:begin|end)\s+(?:of\s+)?(?:the\s+)?system\s+prompt\b`,
    ),
  },
  {
    id: 'fake-role-marker',
    description: 'a chat-template role or turn marker (<system>, <|im_start|>, ### System:)',
    span: 'line',
    pattern: re(
      String.raw`<\|\s*(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\s*\|>` +
        String.raw`|<\/?\s*(?:system|assistant|developer|system[_-]?prompt)\s*>` +
        String.raw`|\[\/?INST\]|<<\/?SYS>>` +
        String.raw`|^\s*(?:#{1,6}|\[)\s*(?:system|assistant|developer)(?:\s+(?:message|prompt|instructions?|override))?\s*(?:\]\s*)?:`,
    ),
  },
  {
    id: 'exfil-secrets-to-url',
    description: 'sends secrets, credentials, keys or environment variables to a URL',
    span: 'line',
    pattern: re(
      String.raw`^(?=[^\n]*${URL})(?:` +
        String.raw`(?=[^\n]*\b(?:exfiltrate|exfil|leak|steal|harvest|smuggle)\b)(?=[^\n]*(?:\b${SECRET_NOUN}\b|${SECRET_FILE}|${ENV_FILE}))` +
        String.raw`|(?=[^\n]*\b(?:send|sends|sending|post|posting|upload|uploading|transmit|email|beacon|submit|report|copy|dump)\b)` +
        String.raw`(?=[^\n]*(?:\b(?:all|every|each|any|entire|full|complete|whole|the\s+user'?s?|the\s+operator'?s?|their|the\s+contents\s+of)\s+(?:[\w-]+\s+){0,2}?${SECRET_NOUN}\b|${SECRET_FILE}|${ENV_FILE}))` +
        String.raw`)[^\n]+`,
    ),
  },
  {
    id: 'pipe-to-shell',
    description: 'downloads a script and runs it (curl | sh, bash <(curl ...), iex (iwr ...))',
    span: 'line',
    pattern: re(
      String.raw`\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]{0,400}\|\s*${SHELL}` +
        String.raw`|\b(?:(?:ba|z)?sh|source|eval)\s+(?:-c\s+)?(?:["']\s*)?(?:<\(|\$\()\s*(?:curl|wget)\b` +
        String.raw`|\b(?:iex|invoke-expression)\s*(?:\(\s*){0,2}(?:iwr|irm|invoke-webrequest|invoke-restmethod|new-object\s+net\.webclient)\b`,
    ),
  },
  {
    id: 'secret-file-read',
    description: 'reads or copies SSH keys, cloud credentials, /etc/passwd or a .env file',
    span: 'line',
    pattern: re(
      String.raw`\b(?:cat|less|more|head|tail|strings|xxd|hexdump|od|base64|print|printf|echo|dump|display|show|output|reveal|read|open|type|get-content|gc|cp|scp|rsync|tar|zip|upload|exfiltrate|send|copy|grep)\b[^\n]{0,80}?${SECRET_FILE}` +
        String.raw`|\b(?:cat|less|more|head|tail|strings|xxd|hexdump|base64|print|dump|type|get-content|upload|exfiltrate|send|scp|curl)\b[^\n]{0,80}?${ENV_FILE}`,
    ),
  },
  {
    id: 'env-dump-to-network',
    description: 'dumps the whole environment (printenv, env, os.environ) to the network',
    span: 'line',
    pattern: re(String.raw`^(?=[^\n]*${ENV_DUMP})(?=[^\n]*${NET_TOOL})[^\n]+`),
  },
  {
    id: 'destructive-rm',
    description: 'recursively deletes /, ~, $HOME or a top-level system directory',
    span: 'line',
    pattern: re(
      String.raw`\brm\s+(?=(?:-{1,2}[\w-]+\s+){0,8}(?:-[a-z]*r|--recursive\b))(?:-{1,2}[\w-]+\s+){1,8}["']?(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?|\/(?:bin|boot|dev|etc|home|lib|lib64|opt|root|sbin|sys|usr|var)\/?\*?)["']?(?=$|[\s;&|)\x60])`,
    ),
  },
  {
    id: 'destructive-disk',
    description: 'formats or overwrites a disk or the whole file system (mkfs, dd of=/dev/sdX, chmod -R 777 /)',
    span: 'line',
    pattern: re(
      String.raw`\bmkfs(?:\.\w+)?\b|\bwipefs\b|\bdd\b[^\n]{0,200}?\bof=\/dev\/(?:sd|hd|vd|xvd|nvme|disk|mmcblk)` +
        String.raw`|>\s*\/dev\/(?:sd[a-z]|hd[a-z]|nvme\d|disk\d|mmcblk\d)|\bshred\b[^\n]{0,200}?\/dev\/|\bformat\s+[a-z]:(?=\s|$)` +
        String.raw`|\bchmod\s+-R\s+(?:777|000)\s+\/(?=\s|$)`,
    ),
  },
  {
    id: 'fork-bomb',
    description: 'a fork bomb',
    span: 'line',
    pattern: re(
      String.raw`:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*(?:;\s*)?:|\b(\w+)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}|%0\s*\|\s*%0` +
        String.raw`|\bwhile\s*(?:\(\s*)?(?:true|1)\s*(?:\)\s*)?:?[^\n]{0,40}?\bfork\s*\(\s*\)`,
    ),
  },
  {
    id: 'hidden-zero-width',
    description: 'zero-width or other invisible characters (outside emoji sequences)',
    span: 'line',
    // U+034F (combining grapheme joiner) sits outside the class: a combining mark inside one reads as joined to its neighbour.
    pattern: /(?:[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u00AD\u115F\u1160\u3164\uFFA0]|\u034F)+/gu,
    allow: /\p{Extended_Pictographic}(?:\u{FE0F}|[\u{1F3FB}-\u{1F3FF}])?(?:\u200D\p{Extended_Pictographic}(?:\u{FE0F}|[\u{1F3FB}-\u{1F3FF}])?)+/gu,
  },
  {
    id: 'hidden-bidi',
    description: 'bidirectional override or isolate characters (text that reads differently than it runs)',
    span: 'line',
    pattern: /[\u202A-\u202E\u2066-\u2069]+/gu,
  },
  {
    id: 'hidden-tag-chars',
    description: 'Unicode tag characters (U+E0000 block), invisible ASCII look-alikes',
    span: 'line',
    pattern: /[\u{E0000}-\u{E007F}]+/gu,
    // The three subdivision flags: England, Scotland, Wales.
    allow: /\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}/gu,
  },
  {
    id: 'hidden-variation-selectors',
    description: 'runs of variation selectors, which can smuggle bytes behind a visible character',
    span: 'line',
    pattern: /[\u{E0100}-\u{E01EF}]+|[\uFE00-\uFE0F]{2,}/gu,
  },
  {
    id: 'base64-exec',
    description: 'a base64 blob fed to a decoder, or decoded output fed to a shell or eval',
    span: 'line',
    pattern: re(
      String.raw`\bbase64\s+(?:-d|--decode|-D)\b[^\n|]{0,400}\|\s*${SHELL}` +
        String.raw`|(?<![A-Za-z0-9+\/])[A-Za-z0-9+\/]{40,}={0,2}["']?\s*\|\s*base64\s+(?:-d|--decode|-D)\b` +
        String.raw`|\b(?:atob|b64decode|base64_decode|FromBase64String)\s*\(\s*["'][A-Za-z0-9+\/]{40,}={0,2}["']` +
        String.raw`|\b(?:eval|exec|Function|execSync|system|popen)\s*\(\s*(?:atob|base64\.b64decode|b64decode|Buffer\.from)\s*\(` +
        String.raw`|\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,200}?\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+\/=]{20,}`,
    ),
  },
  {
    id: 'hidden-html-comment',
    description: 'an HTML comment or hidden HTML element carrying instructions the rendered view hides',
    span: 'field',
    // A comment's scan stops at the next `<!--` too, which keeps the rule linear on hostile input.
    pattern: re(String.raw`<!--(?:(?!-->|<!--)[\s\S]){0,4000}?${HIDDEN_WORDS}`),
    // Hidden elements (`<div style="display:none">…`, an unclosed hidden tag): see hidden-html.ts.
    more: hiddenElementSpans,
  },
  {
    id: 'markdown-hidden-comment',
    description: 'a markdown link-definition comment ([//]: # (...)), text hidden from the rendered view',
    span: 'line',
    pattern: re(String.raw`^[ \t]{0,3}\[(?:\/\/|comment|hidden|_|#|\s*)\]:\s*(?:#|<>)\s*[("']`),
  },
  {
    id: 'markdown-image-exfil',
    description: 'a markdown image whose URL carries a template placeholder (data leaks on render)',
    span: 'line',
    pattern: re(String.raw`!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?\/\/[^)\s{]{1,1000}(?:\{|%7B)[^)\s]{0,200}\)`),
  },
  {
    id: 'disable-safety',
    description: 'asks to disable safety checks, approvals, sandboxing or the audit log',
    span: 'field',
    pattern: re(
      String.raw`\b(?:disable|turn\s+off|switch\s+off|bypass|circumvent|evade|get\s+around|ignore|override|deactivate|skip|suppress)\s+(?:(?:all|any|the|your|its|every|of|these|those)\s+){0,6}` +
        String.raw`(?:safety|approvals?|human[\s-]+(?:approval|review|oversight)|guardrails?|content\s+(?:filters?|polic(?:y|ies)|moderation)|moderation|safeguards?|ethical\s+guidelines|alignment|audit\s+(?:log|logging|trail)|kill[\s-]?switch|budget\s+(?:limits?|caps?))\b` +
        String.raw`|\b(?:disable|bypass|escape|circumvent|break\s+out\s+of)\s+(?:(?:the|your|its)\s+)?sandbox(?:ing)?\b` +
        String.raw`|--dangerously[\w-]*|--yolo\b|--bypass-approvals?\b|--skip-permissions\b` +
        String.raw`|\b(?:without|never|don't|do\s+not|no\s+need\s+to)\s+(?:ask(?:ing)?|request(?:ing)?|wait(?:ing)?\s+for|seek(?:ing)?|get(?:ting)?|obtain(?:ing)?)\s+(?:(?:the|for|any|user|user's|operator's|human|explicit|their|prior)\s+){0,6}(?:approval|permission|consent|sign-?off)\b` +
        String.raw`|\bauto[\s-]?approve\s+(?:all|every|everything|any)\b|\bapprove\s+(?:all|every|everything)\s+(?:tool\s+calls?|requests?|actions?|commands?)\b`,
    ),
  },
  {
    id: 'conceal-from-user',
    description: 'tells the model to hide what it does from the user or operator',
    span: 'field',
    pattern: re(
      String.raw`\b(?:do\s+not|don't|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|alert(?:ing)?|notify(?:ing)?|warn(?:ing)?)\s+(?:the\s+)?(?:user|operator|human|anyone|them)\s+(?:about\s+)?(?:this|these|that\s+you|what\s+you|you\s+(?:are|have|did))\b` +
        String.raw`|\b(?:do\s+not|don't|never|without)\s+let(?:ting)?\s+(?:the\s+)?(?:user|operator|human|anyone)\s+(?:know|notice)\b` +
        String.raw`|\bkeep\s+(?:this|these\s+instructions|it)\s+(?:a\s+)?(?:secret|hidden|confidential)\s+from\s+(?:the\s+)?(?:user|operator|human)`,
    ),
  },
];
