-- Search ignores accents and case: "cafe" finds "Café", "ÉTÉ" finds "été". The unaccent extension is not
-- installable everywhere (it needs a superuser, or CREATE on the database, and the contrib package), so the
-- folding is a plain immutable function: Latin letters with diacritics become their base letter, then
-- lower case. Immutable, so an expression index can use it should the per-owner scan ever be too slow.
CREATE FUNCTION "search_fold"(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT lower(translate(value,
    'ÀÁÂÃÄÅĀĂĄàáâãäåāăąÇĆĈČçćĉčĎďĐđÈÉÊËĒĔĖĘĚèéêëēĕėęěĜĞĠĢĝğġģĤĥÌÍÎÏĨĪĬĮİìíîïĩīĭįıĴĵĶķĹĻĽŁĺļľłÑŃŅŇñńņňÒÓÔÕÖØŌŎŐòóôõöøōŏőŔŖŘŕŗřŚŜŞŠśŝşšŢŤţťÙÚÛÜŨŪŬŮŰŲùúûüũūŭůűųŴŵÝŶŸýŷÿŹŻŽźżž',
    'AAAAAAAAAaaaaaaaaaCCCCccccDdDdEEEEEEEEEeeeeeeeeeGGGGggggHhIIIIIIIIIiiiiiiiiiJjKkLLLLllllNNNNnnnnOOOOOOOOOoooooooooRRRrrrSSSSssssTTttUUUUUUUUUUuuuuuuuuuuWwYYYyyyZZZzzz'))
$$;
