import { expect } from 'chai';
import { RequestRecords } from '../../src/dev/console/request-records.js';

describe("the dev console's request records (log lines, event and answer by request id)", () => {
  it("files a JSON line under its requestId field, a plain line under the thread's latest request, and ignores blank lines", () => {
    const records = new RequestRecords();
    records.line(JSON.stringify({ level: 'info', message: 'hi', requestId: 'r-1' }), 'stdout', 'r-2');
    records.line('plain console.log', 'stderr', 'r-2');
    records.line('   ', 'stdout', 'r-2');
    records.line('no request yet', 'stdout', undefined);
    expect(records.get('r-1')!.logs.map((l) => l.text)).to.deep.equal([JSON.stringify({ level: 'info', message: 'hi', requestId: 'r-1' })]);
    expect(records.get('r-2')!.logs).to.have.length(1);
    expect(records.get('r-2')!.logs[0]).to.include({ stream: 'stderr', text: 'plain console.log' });
  });

  it('is bounded: 200 lines per request (the rest counted), 500 requests (the oldest forgotten), texts and bodies cut at 16 KB', () => {
    const records = new RequestRecords();
    for (let i = 0; i < 250; i++) records.line(`line ${i}`, 'stdout', 'busy');
    expect(records.get('busy')!.logs).to.have.length(200);
    expect(records.get('busy')!.droppedLines).to.equal(50);
    for (let i = 0; i < 500; i++) records.event(`r-${i}`, { i });
    expect(records.get('busy')).to.equal(undefined);
    expect(records.get('r-0')).to.not.equal(undefined);
    records.event('big', { body: 'x'.repeat(1_000_000), rawPath: '/upload' });
    expect(records.get('big')!.event!.length).to.be.below(20_000);
    expect(records.get('big')!.event).to.include('"rawPath":"/upload"');
    records.response('big', { status: 200, body: 'y'.repeat(100_000) });
    expect(records.get('big')!.response!.body.length).to.be.below(20_000);
  });

  it("shows an HTTP event as its JSON when read, and cuts a queue's batch when it is recorded", () => {
    const records = new RequestRecords();
    // An HTTP event with a small body: the record shows exactly its JSON
    const http = { rawPath: '/tasks', headers: { authorization: 'Bearer abc' }, requestContext: { http: { method: 'GET' } }, body: '{"a":1}' };
    records.event('h-1', http);
    expect(records.get('h-1')!.event).to.equal(JSON.stringify(http));
    // Read twice: the same text
    expect(records.get('h-1')!.event).to.equal(JSON.stringify(http));
    // A batch of large messages: held cut, whether or not anyone reads it
    const batch = { Records: Array.from({ length: 10 }, (_, i) => ({ messageId: `m-${i}`, body: 'z'.repeat(200_000) })) };
    records.event('q-1', batch);
    expect(records.get('q-1')!.event!.length).to.be.below(20_000);
    // A second event for the same request replaces the first
    records.event('h-1', { ...http, rawPath: '/other' });
    expect(records.get('h-1')!.event).to.include('"/other"');
  });

  it("keeps an HTTP answer's headers as the server held them and writes them out as text when read", () => {
    const records = new RequestRecords();
    const held = { 'content-type': 'application/json', 'content-length': 12, 'set-cookie': ['a=1', 'b=2'], 'x-unset': undefined };
    records.httpAnswer('r-1', 201, held, '{"ok":true}');
    expect(records.get('r-1')!.response).to.deep.equal({ status: 201, body: '{"ok":true}', headers: { 'content-type': 'application/json', 'content-length': '12', 'set-cookie': 'a=1, b=2' } });
    // Read twice: the same answer
    expect(records.get('r-1')!.response!.headers).to.deep.equal({ 'content-type': 'application/json', 'content-length': '12', 'set-cookie': 'a=1, b=2' });
    // A large body is cut when it is recorded
    records.httpAnswer('r-2', 200, {}, 'y'.repeat(100_000));
    expect(records.get('r-2')!.response!.body.length).to.be.below(20_000);
    // A later answer without raw headers replaces the held ones
    records.httpAnswer('r-3', 200, { 'x-a': '1' }, 'first');
    records.response('r-3', { status: 500, body: 'second' });
    expect(records.get('r-3')!.response).to.deep.equal({ status: 500, body: 'second' });
  });
});
