export { oneExchangeAtATime, type PgliteSession } from './one-exchange-at-a-time.js';
export { ProtocolExchange } from './protocol-exchange.js';
