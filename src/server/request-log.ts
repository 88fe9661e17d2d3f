import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** The health probes: their lines are debug while they answer 200. */
const PROBES = new Set(['/healthz', '/livez']);

/**
 * A line per request (docs/operations/shared-deployment.md#logs), written when it is answered and holding the request,
 * its status and its time, instead of Fastify's two (incoming, completed); and who made it
 * (`client_id`, when known) and, for a refusal or a 503, why (`reason`). A refused request
 * (refuse(): a 401, 403 or 429 of authentication) is a warning, written even with --quiet;
 * a health probe that answers 200 a debug line.
 */
export class OneLinePerRequest extends LogController {
  constructor(private readonly everyRequest: boolean) {
    super();
  }
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const note = request.logNote;
    const clientId = note?.clientId ?? (request.clientId || undefined);
    const line = {
      req: request,
      res: reply,
      responseTime: reply.elapsedTime,
      ...(clientId !== undefined && { client_id: clientId }),
      ...(note && { reason: note.reason }),
      ...(error && { err: error }),
    };
    if (error) reply.log.error(line, 'request completed');
    else if (note?.refused) reply.log.warn(line, 'request completed');
    else if (!this.everyRequest) return;
    // a load balancer's or an orchestrator's probe every few seconds: seen at debug level only
    else if (reply.statusCode === 200 && PROBES.has(request.routeOptions.url ?? '')) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
