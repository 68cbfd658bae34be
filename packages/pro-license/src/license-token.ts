import { createPrivateKey, createPublicKey, sign, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { LicenseError } from './errors.js';
import type { LicenseClaims } from './license-claims.js';

/**
 * A license key is a compact JWS (`header.payload.signature`, base64url) signed with Ed25519 (`alg: EdDSA`): any
 * JWS library can read it; this package verifies it with `node:crypto` alone (no dependency, no network).
 */
const HEADER = { alg: 'EdDSA', typ: 'fw-license+jwt' } as const;

/** A public key as the verifier takes it: a JWK, a PEM string, or a `KeyObject`. */
export type LicensePublicKey = JsonWebKey | string | KeyObject;
/** A private key as the signer takes it: a PEM string (PKCS#8), a JWK, or a `KeyObject`. */
export type LicensePrivateKey = JsonWebKey | string | KeyObject;

function publicKeyObject(key: LicensePublicKey): KeyObject {
  if (typeof key === 'string') return createPublicKey(key);
  if ('type' in key && (key as KeyObject).type === 'public') return key as KeyObject;
  return createPublicKey({ key: key as JsonWebKey, format: 'jwk' });
}

function privateKeyObject(key: LicensePrivateKey): KeyObject {
  if (typeof key === 'string') return createPrivateKey(key);
  if ('type' in key && (key as KeyObject).type === 'private') return key as KeyObject;
  return createPrivateKey({ key: key as JsonWebKey, format: 'jwk' });
}

/** Signs claims into a license key (vendor script, tests). Refuses claims the verifier would refuse. */
export function signLicenseKey(claims: LicenseClaims, privateKey: LicensePrivateKey): string {
  if (typeof claims.licensee !== 'string' || claims.licensee.trim() === '') throw new LicenseError('FW_ERR_LICENSE_BAD_SIGNING_INPUT', 'a license key needs a licensee');
  if (!Array.isArray(claims.packages) || claims.packages.length === 0) throw new LicenseError('FW_ERR_LICENSE_BAD_SIGNING_INPUT', 'a license key needs at least one package ("tenancy", ... or "*")');
  if (!Number.isFinite(claims.exp)) throw new LicenseError('FW_ERR_LICENSE_BAD_SIGNING_INPUT', 'a license key needs an expiry (exp, seconds since the epoch)');
  let key: KeyObject;
  try {
    key = privateKeyObject(privateKey);
  } catch (error) {
    throw new LicenseError('FW_ERR_LICENSE_BAD_SIGNING_INPUT', `the private key does not load: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new LicenseError('FW_ERR_LICENSE_BAD_SIGNING_INPUT', `the private key is ${key.asymmetricKeyType ?? 'not asymmetric'}, not Ed25519`);
  const signingInput = `${encode(HEADER)}.${encode(claims)}`;
  return `${signingInput}.${sign(null, Buffer.from(signingInput), key).toString('base64url')}`;
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** What reading a token found: its parts, or why it is not a token. */
export type DecodedLicenseToken =
  | { readonly ok: true; readonly claims: LicenseClaims; readonly signedPart: string; readonly signature: Buffer }
  | { readonly ok: false; readonly problem: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Splits and parses a token without checking its signature. */
export function decodeLicenseToken(token: string): DecodedLicenseToken {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return { ok: false, problem: 'it is not three base64url parts separated by "."' };
  let header: unknown;
  let claims: unknown;
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, problem: 'its header or payload is not JSON' };
  }
  if (!isObject(header) || header['alg'] !== 'EdDSA') return { ok: false, problem: 'its header does not say alg "EdDSA"' };
  if (!isClaims(claims)) return { ok: false, problem: 'its payload lacks licensee, packages or exp' };
  return { ok: true, claims, signedPart: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2]!, 'base64url') };
}

/** Whether the signature of a decoded token verifies against `publicKey`. */
export function signatureVerifies(decoded: { readonly signedPart: string; readonly signature: Buffer }, publicKey: LicensePublicKey): boolean {
  try {
    return verify(null, Buffer.from(decoded.signedPart), publicKeyObject(publicKey), decoded.signature);
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isClaims(value: unknown): value is LicenseClaims {
  if (!isObject(value)) return false;
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  return (
    typeof value['licensee'] === 'string' &&
    strings(value['packages']) &&
    (value['features'] === undefined || strings(value['features'])) &&
    typeof value['exp'] === 'number' &&
    (value['releasesBefore'] === undefined || typeof value['releasesBefore'] === 'number')
  );
}
