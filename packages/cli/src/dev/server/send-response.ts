import type { FastifyReply } from 'fastify';
import type { DevGatewayErrorCode } from './gateway-error-codes.js';
import { errorResponse, type GatewayResponse } from './gateway-response.js';

/** Writes a gateway response to Fastify's reply, with the request id as the HTTP API's `apigw-requestid` header. */
export function send(reply: FastifyReply, response: GatewayResponse, requestId?: string): FastifyReply {
  reply.code(response.statusCode);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  if (response.cookies.length) reply.header('set-cookie', [...response.cookies]);
  if (requestId) reply.header('apigw-requestid', requestId);
  return reply.send(response.body);
}

/** Answers with the framework's error body (written by the runtime's `errorResponse`) and a code of the catalog. */
export function sendError(reply: FastifyReply, statusCode: number, code: DevGatewayErrorCode, message: string, requestId: string = reply.request.id): FastifyReply {
  return send(reply, errorResponse(statusCode, code, message, requestId));
}
