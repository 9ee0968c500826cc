// Path parameters of the capability routes.

export interface CapabilityParams {
  [key: string]: string;
  domainKey: string;
  capabilityId: string;
}
