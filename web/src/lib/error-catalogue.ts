// Every message of the error catalogue (docs/product.md#error-catalogue), in the current language. Keys are
// better-auth's error codes (better-auth's and its plugins' $ERROR_CODES) where one exists, so a result's
// error.code finds its text; texts are messages in web/messages/*.json. INVITATION_EXPIRED and BACKUP_CODE_REQUIRED
// are the screens' own.
import { m } from './i18n';

type Messages = Record<string, () => string>;

/** Errors of the auth layer (better-auth and its plugins), by section of the catalogue. */
export const AUTH_ERRORS = {
  user: {
    USER_NOT_FOUND: m.error_user_not_found,
    USER_ALREADY_EXISTS: m.error_user_already_exists,
    USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: m.error_user_already_exists_use_another_email,
    INVALID_EMAIL: m.error_invalid_email,
    INVALID_EMAIL_OR_PASSWORD: m.error_invalid_email_or_password,
    INVALID_PASSWORD: m.error_invalid_password,
    PASSWORD_TOO_SHORT: m.error_password_too_short,
    PASSWORD_TOO_LONG: m.error_password_too_long,
    EMAIL_NOT_VERIFIED: m.error_email_not_verified,
    EMAIL_ALREADY_VERIFIED: m.error_email_already_verified,
    EMAIL_CAN_NOT_BE_UPDATED: m.error_email_can_not_be_updated,
    SESSION_EXPIRED: m.error_session_expired,
    SESSION_NOT_FRESH: m.error_session_not_fresh,
    FAILED_TO_UNLINK_LAST_ACCOUNT: m.error_failed_to_unlink_last_account,
    ACCOUNT_NOT_FOUND: m.error_account_not_found,
    SOCIAL_ACCOUNT_ALREADY_LINKED: m.error_social_account_already_linked,
    LINKED_ACCOUNT_ALREADY_EXISTS: m.error_linked_account_already_exists,
    PROVIDER_NOT_FOUND: m.error_provider_not_found,
    INVALID_TOKEN: m.error_invalid_token,
    TOKEN_EXPIRED: m.error_token_expired,
    CREDENTIAL_ACCOUNT_NOT_FOUND: m.error_credential_account_not_found,
    USER_ALREADY_HAS_PASSWORD: m.error_user_already_has_password,
    FAILED_TO_CREATE_USER: m.error_failed_to_create_user,
    FAILED_TO_CREATE_SESSION: m.error_failed_to_create_session,
    FAILED_TO_UPDATE_USER: m.error_failed_to_update_user,
    FAILED_TO_GET_SESSION: m.error_failed_to_get_session,
    ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY: m.error_anonymous_users_cannot_sign_in_again_anonymously,
    COULD_NOT_CREATE_SESSION: m.error_could_not_create_session,
    FAILED_TO_GET_USER_INFO: m.error_failed_to_get_user_info,
    ID_TOKEN_NOT_SUPPORTED: m.error_id_token_not_supported,
    INVALID_OAUTH_CONFIGURATION: m.error_invalid_oauth_configuration,
    INVALID_SESSION_TOKEN: m.error_invalid_session_token,
    UNABLE_TO_CREATE_SESSION: m.error_unable_to_create_session,
    UNAUTHORIZED_SESSION: m.error_unauthorized_session,
    UNEXPECTED_ERROR: m.error_unexpected_error,
    UNKNOWN_ERROR: m.error_unknown_error,
    USER_EMAIL_NOT_FOUND: m.error_user_email_not_found,
  },
  admin: {
    YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: m.error_you_are_not_allowed_to_change_users_role,
    YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: m.error_you_are_not_allowed_to_create_users,
    YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: m.error_you_are_not_allowed_to_list_users,
    YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: m.error_you_are_not_allowed_to_list_users_sessions,
    YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: m.error_you_are_not_allowed_to_ban_users,
    YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: m.error_you_are_not_allowed_to_impersonate_users,
    YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: m.error_you_are_not_allowed_to_revoke_users_sessions,
    YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: m.error_you_are_not_allowed_to_delete_users,
    YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: m.error_you_are_not_allowed_to_set_users_password,
    YOU_ARE_NOT_ALLOWED_TO_GET_USER: m.error_you_are_not_allowed_to_get_user,
    YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: m.error_you_are_not_allowed_to_update_users,
    YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL: m.error_you_are_not_allowed_to_set_users_email,
    YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PHONE_NUMBER: m.error_you_are_not_allowed_to_set_users_phone_number,
    YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE: m.error_you_are_not_allowed_to_set_non_existent_value,
    YOU_CANNOT_BAN_YOURSELF: m.error_you_cannot_ban_yourself,
    YOU_CANNOT_REMOVE_YOURSELF: m.error_you_cannot_remove_yourself,
    YOU_CANNOT_IMPERSONATE_ADMINS: m.error_you_cannot_impersonate_admins,
    BANNED_USER: m.error_banned_user,
    USER_BANNED: m.error_user_banned,
  },
  captcha: {
    VERIFICATION_FAILED: m.error_verification_failed,
    MISSING_RESPONSE: m.error_missing_response,
    SERVICE_UNAVAILABLE: m.error_service_unavailable,
    MISSING_SECRET_KEY: m.error_missing_secret_key,
  },
  emailCode: {
    OTP_EXPIRED: m.error_otp_expired,
    INVALID_OTP: m.error_invalid_otp,
    TOO_MANY_ATTEMPTS: m.error_too_many_attempts,
  },
  compromisedPassword: {
    PASSWORD_COMPROMISED: m.error_password_compromised,
  },
  organization: {
    YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: m.error_you_are_not_allowed_to_create_a_new_organization,
    YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: m.error_you_have_reached_the_maximum_number_of_organizations,
    ORGANIZATION_ALREADY_EXISTS: m.error_organization_already_exists,
    ORGANIZATION_SLUG_ALREADY_TAKEN: m.error_organization_slug_already_taken,
    ORGANIZATION_NOT_FOUND: m.error_organization_not_found,
    USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: m.error_user_is_not_a_member_of_the_organization,
    USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: m.error_user_is_already_a_member_of_this_organization,
    YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: m.error_you_are_not_allowed_to_update_this_organization,
    YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: m.error_you_are_not_allowed_to_delete_this_organization,
    YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: m.error_you_cannot_leave_the_organization_as_the_only_owner,
    NO_ACTIVE_ORGANIZATION: m.error_no_active_organization,
    MEMBER_NOT_FOUND: m.error_member_not_found,
    ROLE_NOT_FOUND: m.error_role_not_found,
    ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: m.error_organization_membership_limit_reached,
    NOT_ORGANIZATION_MEMBER: m.error_not_organization_member,
    YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: m.error_you_are_not_allowed_to_delete_this_member,
    YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: m.error_you_are_not_allowed_to_update_this_member,
  },
  team: {
    TEAM_ALREADY_EXISTS: m.error_team_already_exists,
    TEAM_NOT_FOUND: m.error_team_not_found,
    YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: m.error_you_have_reached_the_maximum_number_of_teams,
    UNABLE_TO_REMOVE_LAST_TEAM: m.error_unable_to_remove_last_team,
    ALREADY_TEAM_MEMBER: m.error_already_team_member,
    CANNOT_REMOVE_LAST_TEAM: m.error_cannot_remove_last_team,
    INSUFFICIENT_TEAM_PERMISSIONS: m.error_insufficient_team_permissions,
    TEAM_LIMIT_REACHED: m.error_team_limit_reached,
    TEAM_MEMBER_LIMIT_REACHED: m.error_team_member_limit_reached,
    TEAM_MEMBER_NOT_FOUND: m.error_team_member_not_found,
    TEAM_NAME_TOO_LONG: m.error_team_name_too_long,
    YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM: m.error_you_are_not_allowed_to_create_a_new_team,
    YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION:
      m.error_you_are_not_allowed_to_create_teams_in_this_organization,
    YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION:
      m.error_you_are_not_allowed_to_delete_teams_in_this_organization,
    YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM: m.error_you_are_not_allowed_to_delete_this_team,
    YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: m.error_you_are_not_allowed_to_update_this_team,
  },
  invitation: {
    INVITATION_NOT_FOUND: m.error_invitation_not_found,
    INVITATION_EXPIRED: m.error_invitation_expired,
    USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: m.error_user_is_already_invited_to_this_organization,
    YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: m.error_you_are_not_the_recipient_of_the_invitation,
    INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION: m.error_inviter_is_no_longer_a_member_of_the_organization,
    INVITATION_LIMIT_REACHED: m.error_invitation_limit_reached,
    FAILED_TO_RETRIEVE_INVITATION: m.error_failed_to_retrieve_invitation,
    YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: m.error_you_are_not_allowed_to_cancel_this_invitation,
    YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION:
      m.error_you_are_not_allowed_to_invite_users_to_this_organization,
    YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: m.error_you_are_not_allowed_to_invite_user_with_this_role,
  },
  passkey: {
    CHALLENGE_NOT_FOUND: m.error_challenge_not_found,
    FAILED_TO_VERIFY_REGISTRATION: m.error_failed_to_verify_registration,
    AUTHENTICATION_FAILED: m.error_authentication_failed,
    PASSKEY_NOT_FOUND: m.error_passkey_not_found,
    FAILED_TO_UPDATE_PASSKEY: m.error_failed_to_update_passkey,
    YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY: m.error_you_are_not_allowed_to_register_this_passkey,
  },
  phone: {
    INVALID_PHONE_NUMBER: m.error_invalid_phone_number,
    PHONE_NUMBER_EXIST: m.error_phone_number_exist,
    INVALID_PHONE_NUMBER_OR_PASSWORD: m.error_invalid_phone_number_or_password,
    OTP_NOT_FOUND: m.error_otp_not_found,
    PHONE_NUMBER_NOT_VERIFIED: m.error_phone_number_not_verified,
  },
  subscription: {
    SUBSCRIPTION_NOT_FOUND: m.error_subscription_not_found,
    SUBSCRIPTION_PLAN_NOT_FOUND: m.error_subscription_plan_not_found,
    ALREADY_SUBSCRIBED_PLAN: m.error_already_subscribed_plan,
    EMAIL_VERIFICATION_REQUIRED: m.error_email_verification_required,
    SUBSCRIPTION_NOT_ACTIVE: m.error_subscription_not_active,
    SUBSCRIPTION_NOT_SCHEDULED_FOR_CANCELLATION: m.error_subscription_not_scheduled_for_cancellation,
    FAILED_TO_FETCH_PLANS: m.error_failed_to_fetch_plans,
    UNABLE_TO_CREATE_CUSTOMER: m.error_unable_to_create_customer,
  },
  twoFactor: {
    OTP_NOT_ENABLED: m.error_otp_not_enabled,
    OTP_HAS_EXPIRED: m.error_otp_has_expired,
    TOTP_NOT_ENABLED: m.error_totp_not_enabled,
    TWO_FACTOR_NOT_ENABLED: m.error_two_factor_not_enabled,
    BACKUP_CODES_NOT_ENABLED: m.error_backup_codes_not_enabled,
    INVALID_BACKUP_CODE: m.error_invalid_backup_code,
    BACKUP_CODE_REQUIRED: m.error_backup_code_required,
    INVALID_CODE: m.error_invalid_code,
    TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: m.error_too_many_attempts_request_new_code,
    INVALID_TWO_FACTOR_COOKIE: m.error_invalid_two_factor_cookie,
  },
  username: {
    INVALID_USERNAME_OR_PASSWORD: m.error_invalid_username_or_password,
    USERNAME_IS_ALREADY_TAKEN: m.error_username_is_already_taken,
    USERNAME_TOO_SHORT: m.error_username_too_short,
    USERNAME_TOO_LONG: m.error_username_too_long,
    INVALID_USERNAME: m.error_invalid_username,
  },
  apiKey: {
    KEY_NOT_FOUND: m.error_key_not_found,
    KEY_DISABLED: m.error_key_disabled,
    KEY_EXPIRED: m.error_key_expired,
    USAGE_EXCEEDED: m.error_usage_exceeded,
    KEY_NOT_RECOVERABLE: m.error_key_not_recoverable,
    RATE_LIMIT_EXCEEDED: m.error_rate_limit_exceeded,
    // What the plugin answers for a key over its own rate limit (identity's ResolveApiKey keeps it as the reason).
    RATE_LIMITED: m.error_rate_limit_exceeded,
    INVALID_API_KEY: m.error_invalid_api_key,
    KEY_DISABLED_EXPIRATION: m.error_key_disabled_expiration,
    EXPIRES_IN_IS_TOO_LARGE: m.error_expires_in_is_too_large,
    EXPIRES_IN_IS_TOO_SMALL: m.error_expires_in_is_too_small,
    INVALID_API_KEY_GETTER_RETURN_TYPE: m.error_invalid_api_key_getter_return_type,
    INVALID_METADATA_TYPE: m.error_invalid_metadata_type,
    INVALID_NAME_LENGTH: m.error_invalid_name_length,
    INVALID_PREFIX_LENGTH: m.error_invalid_prefix_length,
    INVALID_REMAINING: m.error_invalid_remaining,
    INVALID_USER_ID_FROM_API_KEY: m.error_invalid_user_id_from_api_key,
    METADATA_DISABLED: m.error_metadata_disabled,
    NO_VALUES_TO_UPDATE: m.error_no_values_to_update,
    REFILL_AMOUNT_AND_INTERVAL_REQUIRED: m.error_refill_amount_and_interval_required,
    REFILL_INTERVAL_AND_AMOUNT_REQUIRED: m.error_refill_interval_and_amount_required,
    SERVER_ONLY_PROPERTY: m.error_server_only_property,
  },
} satisfies Record<string, Messages>;

/**
 * Errors of a request itself, keyed by tRPC error code: texts for answers whose server message is not
 * meant for users, REQUEST_FAILED (the last resort) and NETWORK_ERROR (the request never got an answer).
 */
/** Refusals of card generation (the ai service's reasons). */
export const GENERATION_ERRORS = {
  USAGE_LIMIT_REACHED: m.error_usage_limit_reached,
  UNSUPPORTED_FILE: m.error_unsupported_file,
  FILE_TOO_LARGE: m.error_file_too_large,
  FILE_TOO_COMPLEX: m.error_file_too_complex,
  UPLOAD_QUOTA_REACHED: m.error_upload_quota_reached,
  FILE_NOT_FOUND: m.error_file_not_found,
  MODEL_UNAVAILABLE: m.error_model_unavailable,
} satisfies Messages;

/** Refusals about shared decks and assignments (the organizations service's reasons). */
export const SHARED_DECK_ERRORS = {
  ASSIGNMENT_NOT_FOUND: m.error_assignment_not_found,
  DECK_NOT_FOUND: m.error_deck_not_found,
  DECK_EMPTY: m.error_deck_empty,
  DECK_TOO_LARGE: m.error_deck_too_large,
  DECK_NAME_REQUIRED: m.error_deck_name_required,
  DECK_NAME_TOO_LONG: m.error_deck_name_too_long,
  DECK_DESCRIPTION_TOO_LONG: m.error_deck_description_too_long,
  DECK_TEAM_MISMATCH: m.error_deck_team_mismatch,
  NOT_DECK_PUBLISHER: m.error_not_deck_publisher,
  TAG_REQUIRED: m.error_tag_required,
  DUE_DATE_REQUIRED: m.error_due_date_required,
  DUE_DATE_PAST: m.error_due_date_past,
  TARGET_KIND_INVALID: m.error_target_kind_invalid,
  TARGET_VALUE_INVALID: m.error_target_value_invalid,
  PERMISSION_DENIED: m.error_permission_denied,
} satisfies Messages;

/** Refusals about imports, exports and presets (the cards service's and the gateway's reasons). */
export const COLLECTION_ERRORS = {
  EXPORT_PART_UNAVAILABLE: m.error_export_part_unavailable,
  TOO_MANY_PRESETS: m.error_too_many_presets,
  PRESET_NOT_FOUND: m.error_preset_not_found,
} satisfies Messages;

/** Refusals of a review (the cards service's REVIEW_REASONS). */
export const REVIEW_ERRORS = {
  CARD_ARCHIVED: m.error_card_archived,
} satisfies Messages;

export const REQUEST_ERRORS = {
  REQUEST_FAILED: m.error_request_failed,
  NETWORK_ERROR: m.error_request_network_error,
  UNAUTHORIZED: m.error_request_unauthorized,
  FORBIDDEN: m.error_request_forbidden,
  TOO_MANY_REQUESTS: m.error_request_too_many_requests,
  PAYLOAD_TOO_LARGE: m.error_request_payload_too_large,
  TIMEOUT: m.error_request_timeout,
  SERVICE_UNAVAILABLE: m.error_request_service_unavailable,
  INTERNAL_SERVER_ERROR: m.error_request_internal_server_error,
} satisfies Messages;
