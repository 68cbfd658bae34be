import { ENV } from '@framework/core/names';
import type { Service } from '@framework/runtime';
import type { ChatEvent } from '../events/chat-event.js';
import { pushFrameOf, type ChatPushFrame } from './frames.js';
import { roomTopic } from './room-topic.js';

/** Sends frames to a room's connections (those that joined it over the app's WebSocket API). */
export interface RoomFanOut {
  push(roomId: string, frame: ChatPushFrame): Promise<void>;
  /** A change's frame, if it has one (a retried send has none). */
  event(event: ChatEvent): Promise<void>;
}

/**
 * The room fan-out of `tenantId` through `service.ws` (the framework's connection registry: topics, fan-out queue for
 * large rooms, gone connections forgotten). An app without a WebSocket API has no connections to reach: nothing is
 * sent, and HTTP routes still work.
 */
export function roomFanOut(service: Service, tenantId: string): RoomFanOut {
  const push = async (roomId: string, frame: ChatPushFrame) => {
    if (!process.env[ENV.wsManagementUrl]) return;
    await service.ws.publish(roomTopic(tenantId, roomId), frame);
  };
  return {
    push,
    async event(event) {
      const frame = pushFrameOf(event);
      if (frame) await push(event.roomId, frame);
    },
  };
}
