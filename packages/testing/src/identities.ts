// Service identities for tests and `npm start`: a fresh key pair per identity, never written to the
// repository. testIdentities() is one set per process (per test file under jest), so every harness
// started in one test trusts the others without any configuration.
import {
  SERVICE_NAMES,
  formatTrustedKeys,
  generateIdentityKeys,
  serviceIdentity,
  trustedServiceKeysSchema,
  type CallIdentity,
  type ServiceName,
  type TrustedKeys,
} from "@agentic/platform";

export interface DevIdentities {
  /** SERVICE_IDENTITY_KEY of each identity. */
  privateKeys: Record<ServiceName, string>;
  /** The public half of each, as TRUSTED_SERVICE_KEYS lists it. */
  publicKeys: Record<ServiceName, string>;
  /** TRUSTED_SERVICE_KEYS listing every identity. */
  trustedKeys: string;
  trusted: TrustedKeys;
  identity(name: ServiceName): CallIdentity;
}

export function generateDevIdentities(): DevIdentities {
  const pairs = Object.fromEntries(SERVICE_NAMES.map((name) => [name, generateIdentityKeys()])) as Record<
    ServiceName,
    ReturnType<typeof generateIdentityKeys>
  >;
  const privateKeys = Object.fromEntries(SERVICE_NAMES.map((name) => [name, pairs[name].privateKey])) as Record<ServiceName, string>;
  const publicKeys = Object.fromEntries(SERVICE_NAMES.map((name) => [name, pairs[name].publicKey])) as Record<ServiceName, string>;
  const trustedKeys = formatTrustedKeys(publicKeys);
  const identities = new Map<ServiceName, CallIdentity>();
  return {
    privateKeys,
    publicKeys,
    trustedKeys,
    trusted: trustedServiceKeysSchema.parse(trustedKeys),
    identity(name) {
      let identity = identities.get(name);
      if (!identity) identities.set(name, (identity = serviceIdentity(name, privateKeys[name])));
      return identity;
    },
  };
}

let shared: DevIdentities | undefined;

/** The identities every harness of this process uses by default. */
export function testIdentities(): DevIdentities {
  return (shared ??= generateDevIdentities());
}
