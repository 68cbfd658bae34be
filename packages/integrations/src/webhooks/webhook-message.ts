/** An event an app sends to its customers' endpoints: `type` (`task.created`) and its JSON `data`. */
export interface WebhookEvent {
  readonly type: string;
  readonly data: unknown;
}

/**
 * What travels through the delivery queue: the endpoint's id (never its secret), the message id every attempt keeps
 * (receivers deduplicate on `webhook-id`), the body to sign, and the attempt number.
 */
export interface WebhookDelivery {
  readonly kind: 'fw.webhook.delivery';
  readonly endpointId: string;
  readonly messageId: string;
  /** The body, serialized once: every attempt signs and sends the same bytes. */
  readonly payload: string;
  readonly attempt: number;
}

export function isWebhookDelivery(value: unknown): value is WebhookDelivery {
  const v = value as Partial<WebhookDelivery> | null;
  return typeof v === 'object' && v !== null && v.kind === 'fw.webhook.delivery' && typeof v.endpointId === 'string' && typeof v.messageId === 'string' && typeof v.payload === 'string' && typeof v.attempt === 'number';
}
