import { sql, type Queryable } from '@framework/data';

/** WhatsApp lets a business send free-form (session) messages only this long after the customer's last message. */
export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 3600 * 1000;

/** Whether the 24-hour customer-service window is open at `now`, given the customer's last inbound message. */
export function isWindowOpen(lastInboundAt: Date | undefined, now: Date): boolean {
  if (!lastInboundAt) return false;
  const age = now.getTime() - lastInboundAt.getTime();
  return age >= 0 && age < CUSTOMER_SERVICE_WINDOW_MS;
}

/** Where the provider learns when a customer last wrote. */
export interface CustomerServiceWindows {
  lastInbound(phone: string): Promise<Date | undefined>;
}

/**
 * The last inbound WhatsApp message per phone number (`fw_notify_whatsapp_sessions`), recorded by the inbound-message
 * handler (or, locally, by the inbox when a reply is simulated).
 */
export class WhatsAppSessionStore implements CustomerServiceWindows {
  constructor(private readonly db: Queryable) {}

  public async lastInbound(phone: string): Promise<Date | undefined> {
    const row = await this.db.maybeOne<{ last_inbound_at: Date }>(sql`SELECT last_inbound_at FROM fw_notify_whatsapp_sessions WHERE phone = ${phone}`);
    return row?.last_inbound_at;
  }

  /** Records an inbound message; an older timestamp (a late, out-of-order event) never moves the window back. */
  public async recordInbound(phone: string, at: Date): Promise<void> {
    await this.db.query(sql`
      INSERT INTO fw_notify_whatsapp_sessions (phone, last_inbound_at) VALUES (${phone}, ${at})
      ON CONFLICT (phone) DO UPDATE SET last_inbound_at = GREATEST(fw_notify_whatsapp_sessions.last_inbound_at, EXCLUDED.last_inbound_at)`);
  }
}
