// Runs s3rver in its own process: its ListObjectsV2 continuation tokens use DES, which OpenSSL 3 only offers with
// --openssl-legacy-provider, a flag that must be given when Node starts. Args: <directory> <bucket>...
const S3rver = require('s3rver');

const [directory, ...buckets] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name, configs: [] })) });
server.run().then((address) => process.stdout.write(JSON.stringify({ port: address.port }) + '\n'));
process.on('SIGTERM', () => server.close().finally(() => process.exit(0)));
