/** The stand-in key an agent sends with its model calls: the interceptor sends the real one upstream. */
export const STAND_IN_KEY = "proctor-rollout"
