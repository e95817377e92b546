// The model providers as GET /api/system/gateway-config names them: one
// `has<Provider>Key` flag each (hasOpenAIKey → provider id `openai`, the id
// configure-gateway and PATCH apiKeys take). Pure.
export interface ProviderKeyFlag {
  id: string;
  name: string;
  hasKey: boolean;
}

const DISPLAY: Readonly<Record<string, string>> = { Xai: 'xAI' };

export function providersFromFlags(env: Readonly<Record<string, boolean>>): ProviderKeyFlag[] {
  return Object.entries(env).flatMap(([flag, hasKey]) => {
    const stem = /^has(.+)Key$/.exec(flag)?.[1];
    return stem ? [{ id: stem.toLowerCase(), name: DISPLAY[stem] ?? stem, hasKey: hasKey === true }] : [];
  });
}
