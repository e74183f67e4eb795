import { changePasswordBodySchema, deleteAccountBodySchema, loginBodySchema, signupBodySchema } from '@crowdbox/contracts';
import { createZodDto } from 'nestjs-zod';

export class SignupDto extends createZodDto(signupBodySchema) {}
export class LoginDto extends createZodDto(loginBodySchema) {}
export class ChangePasswordDto extends createZodDto(changePasswordBodySchema) {}
export class DeleteAccountDto extends createZodDto(deleteAccountBodySchema) {}
