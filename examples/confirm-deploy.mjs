// The frontend tool of the demo, shared by the agent (which calls it) and
// the page (which advertises and answers it). Plain data: no Node or browser
// API, so both import it.

/** The parameters schema of `confirm_deploy`. */
export const CONFIRM_DEPLOY_PARAMETERS = Object.freeze({
  type: "object",
  properties: {
    service: { type: "string" },
    version: { type: "string", pattern: "^v\\d+\\.\\d+\\.\\d+$" },
    replicas: { type: "integer", minimum: 1, maximum: 20 },
    notes: { type: "string" },
  },
  required: ["service", "version", "replicas"],
  additionalProperties: false,
});

/** The tool as a RunAgentInput advertises it. */
export const CONFIRM_DEPLOY_TOOL = Object.freeze({
  name: "confirm_deploy",
  description: "Ask the user to confirm a production deployment before it happens.",
  parameters: CONFIRM_DEPLOY_PARAMETERS,
});
