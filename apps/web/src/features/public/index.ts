/** What other features may use of the visitor side: the review of registration applications (tenant manager). */
export { ApplicationsTabLabel, RegistrationApplications } from './review';
