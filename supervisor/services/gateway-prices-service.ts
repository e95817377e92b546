// The gateway's model prices, published for every thread: the prices the
// operator gave the gateway's models (`models.providers.<p>.models[].cost`)
// go into svc's settings table (GATEWAY_PRICES_KEY), where every thread's
// price book reads them (shared/pricing). Sources, newest wins:
//   - the running gateway's config (`config.get`'s `parsed`: the file as
//     written), each time svc's gateway link connects;
//   - the gateway's config file, at start and whenever the link is lost (the
//     gateway may be stopped to be edited);
//   - refresh(config) from whoever reads the gateway's config anyway.
// A source with no config to read (no file, a file that does not parse, a
// failed request) leaves the published prices as they are: it says nothing
// about prices.
import type { SettingsTable } from '../../shared/db/settings-table.ts';
import { messageOf } from '../../shared/errors.ts';
import type { GatewayCall } from '../../shared/gateway/config-rpc.ts';
import type { Logger } from '../../shared/log.ts';
import { GATEWAY_PRICES_KEY, pricesFromGatewayConfig, serializePrices, type PriceBook } from '../../shared/pricing/index.ts';
import { readGatewayConfig } from '../../shared/settings/gateway-files.ts';

export interface GatewayPricesService {
  /** The supervisor's price book (what the published prices are read through). */
  book: PriceBook;
  /** Publishes the prices of a gateway config as written (openclaw.json, or `config.get`'s `parsed`). */
  refresh(config: unknown): void;
  /** The gateway link's state: a connect reads the running gateway's config, a loss the file. */
  gatewayStatus(connected: boolean): void;
}

export interface GatewayPricesDeps {
  /** The gateway's state folder (where its openclaw.json is), as svc knows it now. */
  stateDir: () => string;
  settingsTable: Pick<SettingsTable, 'get' | 'set'>;
  book: PriceBook;
  gateway: { connected(): boolean; call: GatewayCall };
  logger: Logger;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function createGatewayPricesService(deps: GatewayPricesDeps): GatewayPricesService {
  const { stateDir, settingsTable, gateway, logger } = deps;

  const refresh = (config: unknown): void => {
    const prices = pricesFromGatewayConfig(config);
    const text = serializePrices(prices);
    // Unchanged prices are not written again: the row's updatedAt says when they last changed.
    if (settingsTable.get(GATEWAY_PRICES_KEY) === text) return;
    settingsTable.set(GATEWAY_PRICES_KEY, text);
    logger.info({ models: [...prices.keys()] }, 'gateway model prices published');
  };

  const fromFile = (): void => {
    const read = readGatewayConfig(stateDir());
    if (read.config) refresh(read.config);
    else logger.debug({ corrupt: read.corrupt }, 'no gateway config file to read prices from; the published prices stay');
  };

  const fromGateway = async (): Promise<void> => {
    try {
      const snapshot = await gateway.call('config.get', {});
      const parsed = isObject(snapshot) ? snapshot.parsed : undefined;
      if (isObject(parsed)) return refresh(parsed);
      logger.warn({}, 'config.get carried no parsed config; model prices read from the config file');
    } catch (err) {
      logger.warn({ error: messageOf(err) }, 'config.get for model prices failed; read from the config file instead');
    }
    fromFile();
  };

  if (!gateway.connected()) fromFile();
  let wasConnected = gateway.connected();

  return {
    book: deps.book,
    refresh,
    gatewayStatus(connected) {
      if (connected && !wasConnected) void fromGateway();
      else if (!connected && wasConnected) fromFile();
      wasConnected = connected;
    },
  };
}
