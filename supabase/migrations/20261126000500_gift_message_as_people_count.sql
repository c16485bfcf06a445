-- A gift message is up to 200 characters as a person counts them: a family emoji, a flag or an accented letter
-- typed as two code points is one character. The functions check that count (giftMessageProblem, with the
-- browser's and Node's grapheme segmenter); a character can be several code points, which is all the table can
-- count, so its own bound allows ten to a character and still keeps a message short enough to print.
alter table public.orders drop constraint orders_gift_message_plain;
alter table public.orders add constraint orders_gift_message_plain check (
  gift_message is null or (
    char_length(gift_message) between 1 and 2000
    and gift_message = btrim(gift_message)
    and array_length(string_to_array(gift_message, E'\n'), 1) <= 6
    and gift_message !~ '[\u0001-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'
  )
);
