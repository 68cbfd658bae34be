import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DevLogger } from '../engines/engine.js';
import { isDevPath } from './dev-endpoint-guard.js';
import { gatewayAnswer } from './gateway-answer.js';
import type { DevGatewayErrorCode } from './gateway-error-codes.js';
import { errorResponse } from './gateway-response.js';

/**
 * Fastify and Node answer some requests before any route runs (a URL that does not decode, a method no route takes,
 * headers over Node's limit, a request line that does not parse). Those answers get the framework's error body too,
 * so a client sees one error shape from `fw dev`, whatever refused it.
 */

/** The codes of the 4xx answers the dev server writes itself, by status (each has a row in the README). */
export const STATUS_ERROR_CODES: Readonly<Record<number, DevGatewayErrorCode>> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  411: 'LENGTH_REQUIRED',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
};

/** The error code of a 4xx status (`BAD_REQUEST` for one without a name of its own). */
export function codeForStatus(statusCode: number): DevGatewayErrorCode {
  return STATUS_ERROR_CODES[statusCode] ?? 'BAD_REQUEST';
}

/** Whether an error only says the client went away (closed the connection mid-request): nothing for the developer to fix. */
export function isClientAbort(error: { code?: string; message?: string }, request?: FastifyRequest): boolean {
  return error.code === 'ECONNRESET' || error.code === 'ECONNABORTED' || error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted' || request?.raw.aborted === true;
}

/** Fastify's `frameworkErrors`: a path that does not decode (`/%zz`) or a parameter over its length limit. */
export function frameworkErrorAnswer(error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply): void {
  const statusCode = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  const message = (error as { code?: string }).code === 'FST_ERR_BAD_URL' ? `the path ${JSON.stringify((request.raw.url ?? '').split('?')[0])} is not a valid URL path (a % not followed by two hex digits?)` : error.message;
  const response = errorResponse(statusCode, codeForStatus(statusCode), message, request.id);
  void reply.code(statusCode).headers(response.headers).send(response.body);
}

/**
 * Fastify's not-found handler: reached only by a method no route takes (every path of the others is a route). Under
 * `/_dev` the framework's error body; elsewhere the HTTP API's own `{"message":"Not Found"}`, as deployed.
 */
export function notFoundAnswer(log: DevLogger): (request: FastifyRequest, reply: FastifyReply) => void {
  return (request, reply) => {
    const path = (request.raw.url ?? '/').split('?')[0];
    const reason = `no route ${request.method} ${path}`;
    const response = isDevPath(request.raw.url ?? '/') ? errorResponse(404, 'NOT_FOUND', reason, request.id) : gatewayAnswer(404, reason);
    if (!isDevPath(request.raw.url ?? '/')) log.info(`${request.method} ${path}: the gateway answered 404: ${reason} (request ${request.id})`);
    void reply.code(404).headers(response.headers).header('apigw-requestid', request.id).send(response.body);
  };
}

/**
 * Node's `clientError`: the request could not be parsed (bad request line, unknown method, headers over the size
 * limit, a header read that timed out). Answered with the framework's error body, then the connection is closed.
 */
export function clientErrorAnswer(log: DevLogger): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    // The client went away (mid-headers or mid-body): nobody reads an answer, nothing to report.
    if (error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const statusCode = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_URI_TOO_LONG' ? 414 : 400;
    const message =
      statusCode === 431
        ? 'the request headers are larger than the server accepts (16 KB): send fewer or smaller headers'
        : statusCode === 408
          ? 'the request headers did not arrive in time'
          : `the request could not be parsed as HTTP/1.1 (${error.code ?? error.message})`;
    const requestId = randomUUID();
    const body = errorResponse(statusCode, codeForStatus(statusCode), message, requestId).body as string;
    log.info(`refused a request that is not valid HTTP: ${statusCode} (${error.code ?? error.message}), request ${requestId}`);
    if (socket.writable) {
      socket.write(`HTTP/1.1 ${statusCode} ${http.STATUS_CODES[statusCode]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\napigw-requestid: ${requestId}\r\nconnection: close\r\n\r\n${body}`);
    }
    socket.destroy();
  };
}
