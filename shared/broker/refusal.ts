// A tool's refusal at run time (e.g. delete_path finding its target swapped
// after the approval): the call ends with outcome `refused`, not `error`, so
// the caller and the audit log read it as the policy it is.
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}
