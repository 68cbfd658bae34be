/*
 * Writes the fixture corpus's PDF (test/fixtures/corpus/security-incident.pdf): a one-page PDF 1.4 with a text layer
 * in Helvetica, written by hand so the repository needs no PDF library to remake it.
 * Run: npx tsx test/support/make-pdf.ts
 */
import { writeFileSync } from 'node:fs';

const LINES = [
  'Security incident procedure',
  '',
  'Report a suspected security incident to the security team within one hour,',
  'through the incident hotline or the #security channel.',
  'Do not wipe or restart an affected laptop: keep it powered on and disconnect it',
  'from the network, so the investigators can preserve evidence.',
  'A lost badge or laptop is a security incident too.',
];

/** The bytes of a PDF whose page shows `lines`, one per row. */
export function pdfWithLines(lines: readonly string[]): Buffer {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = ['BT', '/F1 11 Tf', '14 TL', '50 780 Td', ...lines.map((l) => `(${escape(l)}) '`), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../fixtures/corpus/security-incident.pdf', import.meta.url), pdfWithLines(LINES));
}
