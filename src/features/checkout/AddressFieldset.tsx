/**
 * The checkout's shipping address. The fields follow the country (what the post there calls them and which it
 * needs); a gift's delivery name is the recipient's; a changed postcode in Australia fills in its state, unless
 * one was chosen; a chosen suggestion fills the whole address.
 */
import type { RefObject } from 'react';
import { get, useController, useFormContext, type FieldPath } from 'react-hook-form';
import { ALLOWED_COUNTRIES, COUNTRY_NAMES, LIMITS } from '@/config/constants';
import { FieldError, invalidProps, TextField } from '@/features/forms/fields';
import AddressAutocomplete from './AddressAutocomplete';
import { addressFormat, auStateOfPostcode } from './address-format';
import type { CheckoutFormValues } from './use-checkout-form';
import { fieldId, FIELD_PATHS, type CheckoutField } from './validation';

type AddressField = Exclude<CheckoutField, 'email' | 'buyerName' | 'giftMessage'>;

export default function AddressFieldset({ readOnly, countryChosen }: { readOnly: boolean; countryChosen: RefObject<boolean> }) {
  const { register, watch, getValues, setValue, clearErrors, formState, control } = useFormContext<CheckoutFormValues>();
  const address = watch('shippingDetails');
  const isGift = watch('gift.isGift');
  const format = addressFormat(address.country);
  const errorOf = (field: AddressField) => (get(formState.errors, FIELD_PATHS[field]) as { message?: string } | undefined)?.message;
  const clear = (...paths: Array<FieldPath<CheckoutFormValues>>) => clearErrors(paths);

  /** A field's registration: its change takes its message away, and may do more. */
  const registered = (name: AddressField, onChange?: () => void) =>
    register(FIELD_PATHS[name], {
      onChange: () => {
        clear(FIELD_PATHS[name]);
        onChange?.();
      },
    });
  /** The props every address text field shares: its id, read-only until hydrated, its limit and its message. */
  const field = (name: AddressField, maxLength: number = LIMITS.addressFieldMaxLength, onChange?: () => void) => ({
    id: fieldId(name),
    readOnly,
    maxLength,
    error: errorOf(name),
    ...registered(name, onChange),
  });

  // In Australia the postcode says the state: filled in unless the shopper chose another than the old postcode's.
  const previousPostcodeState = auStateOfPostcode(address.postalCode);
  const postcodeChanged = () => {
    const { postalCode, state, country } = getValues('shippingDetails');
    const derived = country === 'AU' ? auStateOfPostcode(postalCode) : null;
    if (derived && (!state || state === previousPostcodeState)) setValue(FIELD_PATHS.state, derived);
  };
  const line1 = useController({ control, name: FIELD_PATHS.addressLine1 }).field;

  return (
    <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
      <legend className="px-2 font-display text-xl font-bold text-navy">Shipping address</legend>
      <div>
        <label htmlFor={fieldId('country')} className="label">
          Country
        </label>
        <select
          id={fieldId('country')}
          className="field"
          autoComplete="country"
          disabled={readOnly}
          {...registered('country', () => {
            countryChosen.current = true;
            // The regions are the new country's: the one chosen before means nothing there.
            setValue(FIELD_PATHS.state, '');
            clear(FIELD_PATHS.state);
          })}
        >
          {ALLOWED_COUNTRIES.map((code) => (
            <option key={code} value={code}>
              {COUNTRY_NAMES[code]}
            </option>
          ))}
        </select>
      </div>
      {isGift ? (
        <>
          <TextField label="Recipient's full name" autoComplete="off" required {...field('fullName', LIMITS.nameMaxLength)} />
          <p className="-mt-2 text-sm text-slate-600">For the parcel's label: the person the gift goes to.</p>
        </>
      ) : (
        <>
          <TextField label="Full name" autoComplete="name" optional {...field('fullName', LIMITS.nameMaxLength)} />
          <p className="-mt-2 text-sm text-slate-600">For the parcel's label. Left blank, we use the name on the card.</p>
        </>
      )}
      <AddressAutocomplete
        readOnly={readOnly}
        value={line1.value}
        country={address.country}
        id={fieldId('addressLine1')}
        error={errorOf('addressLine1')}
        onChange={(value) => {
          line1.onChange(value);
          clear(FIELD_PATHS.addressLine1);
        }}
        onSelect={(a) => {
          countryChosen.current = true;
          const country = ALLOWED_COUNTRIES.find((code) => code === a.country) ?? getValues(FIELD_PATHS.country);
          setValue('shippingDetails', { ...getValues('shippingDetails'), addressLine1: a.line1, addressLine2: a.line2, city: a.city, state: a.state, postalCode: a.postal_code, country });
          clear(FIELD_PATHS.addressLine1, FIELD_PATHS.city, FIELD_PATHS.state, FIELD_PATHS.postalCode, FIELD_PATHS.country);
        }}
      />
      <TextField label="Address line 2" autoComplete="address-line2" optional {...field('addressLine2')} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label={format.city} autoComplete="address-level2" required {...field('city')} />
        {format.region.options ? (
          <div>
            <label htmlFor={fieldId('state')} className="label">
              {format.region.label}
            </label>
            <select id={fieldId('state')} className="field" autoComplete="address-level1" disabled={readOnly} {...invalidProps(fieldId('state'), errorOf('state'))} {...registered('state')}>
              <option value="">Select…</option>
              {format.region.options.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
            <FieldError fieldId={fieldId('state')} message={errorOf('state')} />
          </div>
        ) : (
          <TextField label={format.region.label} autoComplete="address-level1" optional={!format.region.required} required={format.region.required} {...field('state')} />
        )}
        <TextField label={format.postal.label} autoComplete="postal-code" optional={!format.postal.required} required={format.postal.required} {...field('postalCode', 20, postcodeChanged)} />
      </div>
      <TextField label="Phone" type="tel" autoComplete="tel" optional {...field('phone', 40)} />
      {address.country !== 'AU' && <p className="-mt-2 text-sm text-slate-600">The carrier abroad may call if they cannot deliver.</p>}
    </fieldset>
  );
}
