// Who may resolve an approval: an operator, the person at the dashboard. An
// approval is a boundary against the agents it gates, so resolving one takes
// an OperatorPrincipal that the broker checks with a function it is given at
// construction. Only the supervisor mints principals (supervisor/
// operator-principal.ts, for the HTTP route); shared/ never imports the
// supervisor, so no MCP server, in process or as a stdio binary, can make
// one, and a look-alike object is refused. A broker built without a check
// (a stdio binary's) refuses every resolve.
export interface OperatorPrincipal {
  readonly kind: 'operator';
  /** Where the operator acted (e.g. 'http'), for logs. */
  readonly via: string;
}

/** True only for a principal minted by the process's own minting code. */
export type OperatorCheck = (p: unknown) => p is OperatorPrincipal;

export const noOperators: OperatorCheck = (_p: unknown): _p is OperatorPrincipal => false;

export const OPERATOR_REQUIRED = 'only an operator (the dashboard) can resolve an approval';

export class OperatorRequiredError extends Error {
  constructor() {
    super(OPERATOR_REQUIRED);
    this.name = 'OperatorRequiredError';
  }
}
