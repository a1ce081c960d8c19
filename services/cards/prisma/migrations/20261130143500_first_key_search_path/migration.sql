-- The first-side key's functions find search_fold and first_side_key in the service's schema whatever the
-- search_path of the statement that fires the trigger: an operator's `UPDATE cards.cards …` from another schema
-- failed with "function first_side_key(text) does not exist". FROM CURRENT keeps the schema this migration runs in.
ALTER FUNCTION "first_side_key"(text) SET search_path FROM CURRENT;
ALTER FUNCTION "cards_first_key"() SET search_path FROM CURRENT;
