// The settings folder's public surface: svc's settings file, the gateway's
// own files, and the resolution of the gateway URL and token.
export {
  DEFAULT_GATEWAY_URL,
  SETTINGS_ERRORS,
  originOf,
  readSettings,
  readStudioAccessToken,
  saveSettings,
  validateSettingsPatch,
} from './settings-file.ts';
export type {
  OnCorrupt,
  SettingsPatch,
  SettingsPatchResult,
  SettingsRead,
  StoredSettings,
} from './settings-file.ts';
export {
  gatewayAuthFromConfig,
  parseDotenv,
  readGatewayConfig,
  readGatewayEnv,
  stripJsonComments,
} from './gateway-files.ts';
export type { GatewayConfigRead } from './gateway-files.ts';
export {
  resolveFromStored,
  resolveGatewaySettings,
  resolveTemplateVar,
  settingsView,
  templateName,
  tokenNeededMessage,
  viewOf,
} from './resolve.ts';
export type { LookupEnv, ResolveOptions, ResolvedGateway, SettingsView, TemplatePolicy, TokenSource } from './resolve.ts';
export { isRefusedTemplateName } from './template-policy.ts';
