/**
 * The floor of HTTP on this machine, for bench:point: a fastify app with no hooks, no log, no
 * schemas and no key, in a process of its own (bench/point.ts starts it), answering GET
 * /v1/health and a POST of a JSON body with a fixed answer of the point query's size. What
 * the server's own round trips cost beyond these is ours to cut. Prints the address it listens
 * at, as the server does; ends on SIGTERM.
 *
 *   node --import tsx bench/bare-fastify.ts ANSWER
 */
import Fastify from 'fastify';

const [answer] = process.argv.slice(2);
const app = Fastify({ logger: false });
app.get('/v1/health', async () => ({ status: 'ok' }));
app.post('/v1/graph/query', async (_request, reply) => reply.type('application/json; charset=utf-8').send(answer));
console.log(`listening at ${await app.listen({ port: 0, host: '127.0.0.1' })}`);
