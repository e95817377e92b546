// Types of test/install-chromium.mjs, for the TypeScript browser harness.
export declare const CHROMIUM_PATH: string;
export declare function ensureChromium(): string | null;
